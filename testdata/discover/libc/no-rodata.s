.section .data
.ascii "GNU C Library stable release version 9.9.\n\0"
