/*
 * sgf: a game as an SGF file and back (sgf.h says what goes where).
 * SGF FF[4]: https://www.red-bean.com/sgf/ (sgf4.html: the grammar, the
 * setup properties AB, AW and AE, and the root properties).  The writer is
 * sgf_write.c; the reader sgf_tree.c (the syntax) and sgf_read.c (the
 * game); what they share sgf_steps.c (sgf_int.h).
 */
#include "game/sgf.h"

void sgf_point_name(const struct rules_board *b, int p, char out[3])
{
	out[0] = (char)('a' + rules_x(b, p));
	out[1] = (char)('a' + b->width - 1 - rules_y(b, p));
	out[2] = '\0';
}
