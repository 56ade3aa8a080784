/*
 * hooks: what follows a mail's change that is no command's and no part of
 * the pipeline's: the next reminder of a board, the robot's answer, the
 * web pages.  The table is defined where it is called from, the top of the
 * pipeline (process.c), which hands it to the job (j->hooks): the commit
 * walks the table it was given with the functions below, so that nothing
 * inside the commit reaches a service (tests/tools/cycles.sh, the link
 * level).  The services implement the hooks, declared here as mailcmd.h
 * declares the handlers, so that the pipeline includes no service's header.
 */
#ifndef OUSTPBM_HOOKS_H
#define OUSTPBM_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"

struct config;
struct game;
struct job;
struct job_turn;
struct store;

/* One hook; a NULL member is a moment it does not care about. */
struct hook {
	const char *name;
	/* a turn of g about to be committed: g may be changed (its clocks, its next reminder) */
	void (*turn)(struct server *srv, struct game *g);
	/* true if the hook answers g's last turn at once: the mover's mails then go out with the answer */
	bool (*answers)(const struct config *cfg, const struct game *g);
	/* that answer to turn t, the mail's change committed, the board's lock held (the job's game is g) */
	enum process_status (*answer)(struct job *j, struct job_turn *t);
	/*
	 * the mail's replies flushed; board was committed by it (read it again: a hook's answer may
	 * follow), 0 when it committed none (the web's tournaments and feed may have changed all the same)
	 */
	void (*flushed)(struct server *srv, long board);
};

/* A table of hooks, n rows; a NULL table (or n 0) has none. */
struct hooks {
	const struct hook *rows;
	size_t n;
};

/* Every hook's turn, in the table's order. */
void hooks_turn(const struct hooks *h, struct server *srv, struct game *g);

/* The hook that answers g's last turn at once, or NULL. */
const struct hook *hooks_answerer(const struct hooks *h, const struct config *cfg, const struct game *g);

/* Every hook's flushed, board committed by the mail (0: none). */
void hooks_flushed(const struct hooks *h, struct server *srv, long board);

/*
 * The hooks (services/): the clocks, clock.c; the next reminder, remind.c; the robot's answer,
 * robot_answer.c; the web pages, web.c.
 */
void clock_hook_turn(struct server *srv, struct game *g);
void remind_hook_turn(struct server *srv, struct game *g);
bool robot_answer_due(const struct config *cfg, const struct game *g);
enum process_status robot_answer_hook(struct job *j, struct job_turn *t);
void web_hook_flushed(struct server *srv, long board);
/* A tournament's next step when board's game ended: tournament.c. */
void tournament_hook_flushed(struct server *srv, long board);

#endif
