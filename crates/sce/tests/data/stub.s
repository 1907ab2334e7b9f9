.text
.globl printf
.type printf,@function
printf: ret
.globl malloc
.type malloc,@function
malloc: ret
.globl scePthreadCreate
.type scePthreadCreate,@function
scePthreadCreate: ret
.globl __stack_chk_fail
.type __stack_chk_fail,@function
__stack_chk_fail: ret
.data
.globl __stack_chk_guard
.type __stack_chk_guard,@object
.size __stack_chk_guard, 8
__stack_chk_guard: .quad 0
.globl some_data_import
.type some_data_import,@object
.size some_data_import, 4
some_data_import: .long 0
