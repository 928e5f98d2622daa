.section .rodata
.ascii "musl libc (x86_64)\nVersion %s\nDynamic Program Loader\n\0"
