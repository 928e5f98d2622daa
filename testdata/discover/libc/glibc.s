.section .rodata
.ascii "GNU C Library (nfd-fn fixture GLIBC 2.39-0ubuntu8) stable release version 2.39.\n"
.ascii "Copyright (C) 2024 Free Software Foundation, Inc.\n\0"
