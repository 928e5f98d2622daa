.section .rodata
.ascii "uClibc-ng fixture\n\0"
