/* main: placeholder until the command dispatcher lands. */
#include <stdio.h>
int main(void) { return 0; }
