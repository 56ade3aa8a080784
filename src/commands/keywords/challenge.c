/*
 * challenge: the mail command that makes a new board, against another
 * player or the robot, within the limits of the configuration
 * (max_challenges_per_hour, max_open_boards, max_open_challenges); what
 * accept.c, decline.c and limit.c share with it (lib/openboards.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/keywords/challenge_int.h"
#include "base/msg.h"
#include "commands/lib/openboards.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"
#include "game/gameclock.h"
#include "commands/services/tournament.h"
#include "game/gamefile.h"
#include "store/players.h"
#include "store/seeks.h"
#include "store/throttle.h"

static unsigned mix(unsigned long long x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (unsigned)x;
}

/*
 * The limits on challenges (issue: anyone can send one, and each mails the
 * opponent and makes a board): max_challenges_per_hour of the challenger's
 * account; max_open_boards of either player; max_open_challenges, boards
 * still playing between the two on which the opponent has not played.
 * Called under OPENBOARDS_LOCK_FILE, held until the new board is committed
 * and recorded, so two challenges at once are counted one after the other.
 * *ok false after a refusal was sent.
 */
static enum process_status challenge_limits(struct job *j, const char *userid, const char *opponent, bool *ok)
{
	const struct config *cfg = &j->srv.cfg;
	unsigned long made, pending = 0;
	char list[120], then[120];
	enum process_status ps;
	enum store_status ss;
	long *boards = NULL;
	size_t nboards = 0, i, len, used = 0;
	char *text;

	*ok = false;
	list[0] = '\0';
	if (cfg->max_challenges_per_hour != 0) {
		ss = throttle_challenges(j->srv.st, userid, j->srv.now, &made);
		if (ss != STORE_OK)
			return job_store_failure(j, ss, "cannot read the record of challenges");
		if (made >= cfg->max_challenges_per_hour)
			return job_refuse(j, NULL, "%s made %lu challenges in the last hour (max_challenges_per_hour = %lu): "
			    "challenge again later", userid, made, cfg->max_challenges_per_hour);
	}
	if (cfg->max_open_challenges != 0 && strcmp(opponent, GAME_OPEN_SEAT) != 0) {
		ss = store_list_boards(j->srv.st, &boards, &nboards);
		if (ss != STORE_OK)
			return job_store_failure(j, ss, "cannot list the boards");
		for (i = 0; i < nboards; i++) {
			struct game g;

			if (store_board_read(j->srv.st, boards[i], &text, &len) != STORE_OK)
				continue;	/* removed meanwhile, or unreadable: not counted */
			if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && !game_over(&g) &&
			    game_color_of(&g, userid) != RULES_EMPTY && game_color_of(&g, opponent) != RULES_EMPTY &&
			    openboards_unanswered(&g, opponent)) {
				pending++;
				if (used + 16 < sizeof list)
					used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld",
					    used > 0 ? ", " : "", g.board);
			}
			free(text);
		}
		free(boards);
		if (pending >= cfg->max_open_challenges)
			return job_refuse(j, NULL, "%s has not played yet on %lu board%s with %s (%s; "
			    "max_open_challenges = %lu): no new challenge until %s plays on one", opponent, pending,
			    pending == 1 ? "" : "s", userid, list, cfg->max_open_challenges, opponent);
	}
	ps = openboards_may_start(j, userid, "finish or resign one before a new challenge", ok);
	if (ps != PROCESS_OK || !*ok || strcmp(opponent, GAME_OPEN_SEAT) == 0)
		return ps;
	snprintf(then, sizeof then, "challenge %s when one is over", opponent);
	return openboards_may_start(j, opponent, then, ok);
}

/* The opponent named: the robot (within its sizes) or a registered player; *ok false after a refusal. */
static enum process_status find_opponent(struct job *j, struct store_user *opp, bool *ok)
{
	const struct command *c = &j->cmd;
	enum store_status ss;

	*ok = false;
	if (strcmp(c->opponent, GAME_OPEN_SEAT) == 0) {
		/* an open challenge: the seat waits for whoever accepts it */
		if (c->level != 0)
			return job_refuse(j, NULL, "-level=%d is for a challenge to %s, the robot player; an open "
			    "challenge waits for a person", c->level, GAME_ROBOT_USERID);
		memset(opp, 0, sizeof *opp);
		snprintf(opp->userid, sizeof opp->userid, "%s", GAME_OPEN_SEAT);
	} else if (game_user_is_robot(c->opponent)) {
		/* a hex side (3 to 10: 271 cells at most) is always within the robot's reach */
		if (!c->hex && (c->size < ROBOT_SIZE_MIN || c->size > ROBOT_SIZE_MAX))
			return job_refuse(j, NULL, "%s plays boards from %dx%d to %dx%d, not %dx%d: choose another -size",
			    GAME_ROBOT_USERID, ROBOT_SIZE_MIN, ROBOT_SIZE_MIN, ROBOT_SIZE_MAX, ROBOT_SIZE_MAX, c->size,
			    c->size);
		memset(opp, 0, sizeof *opp);
		snprintf(opp->userid, sizeof opp->userid, "%s", GAME_ROBOT_USERID);
	} else if (c->level != 0) {
		return job_refuse(j, NULL, "-level=%d is for a challenge to %s, the robot player; %s is a person",
		    c->level, GAME_ROBOT_USERID, c->opponent);
	} else {
		ss = store_user_find(j->srv.st, c->opponent, opp);
		if (ss == STORE_NOT_FOUND)
			return job_refuse(j, NULL, "there is no user %s: %s must register before playing", c->opponent,
			    c->opponent);
		if (ss != STORE_OK)
			return job_store_failure(j, ss, "cannot read the users file");
	}
	*ok = true;
	return PROCESS_OK;
}

/* challenge: a new board against another player or the robot (MAILCMD_LOGIN: j->user is the challenger). */
/* The new board of challenge_run, its turn into t. */
static enum process_status challenge(struct job *j, struct job_turn *t)
{
	const struct command *c = &j->cmd;
	const struct store_user *u = &j->user;
	struct store_lock limits = STORE_LOCK_INIT;
	struct game *g = &j->game;
	struct store_user opp;
	enum store_status ss;
	enum process_status ps;
	const char *black, *white, *at;
	char dims[GAME_DIMENSIONS_SIZE];
	bool ok, challenger_black, made = false;
	long board = 0;

	if (j->by_token) {
		/* the return game of the token's board, and only it (challenge_int.h) */
		ps = challenge_token_check(j, &ok);
		if (ps != PROCESS_OK || !ok)
			return ps;
	}
	ps = find_opponent(j, &opp, &ok);
	if (ps != PROCESS_OK || !ok)
		return ps;
	if (c->tournament != 0) {
		/* a ladder game (services/tournament.h): the limits of a challenge first, for both */
		ps = openboards_may_start(j, u->userid, "finish or resign one before a ladder challenge", &ok);
		if (ps == PROCESS_OK && ok)
			ps = openboards_may_start(j, opp.userid, "challenge when one is over", &ok);
		return ps != PROCESS_OK || !ok ? ps : tournament_ladder_challenge(j);
	}
	/* -remind= against the server's loss on time (the parser checked it against -timeout=) */
	if (c->remind_days != 0 && c->timeout_days == 0 && j->srv.cfg.timeout_days != 0 &&
	    (unsigned long)c->remind_days >= j->srv.cfg.timeout_days)
		return job_refuse(j, NULL, "-remind=%d is not shorter than this server's time to move, %lu day%s "
		    "(timeout_days): the reminder must come before the loss on time", c->remind_days,
		    j->srv.cfg.timeout_days, j->srv.cfg.timeout_days == 1 ? "" : "s");
	ps = job_lock_path(j, OPENBOARDS_LOCK_FILE, "challenges", &limits);
	if (ps != PROCESS_OK)
		return ps;
	ps = challenge_limits(j, u->userid, opp.userid, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	ss = store_next_board_id(j->srv.st, &board);
	if (ss == STORE_FULL) {
		ps = job_refuse(j, NULL, "no board number is left: ask the server's admin");
		goto out;
	}
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot number the new board");
		goto out;
	}
	j->board = board;
	switch (c->color) {
	case COMMAND_COLOR_WHITE:
		challenger_black = false;
		break;
	case COMMAND_COLOR_RANDOM:
		/* deterministic for a given board and time, so tests can repeat it */
		challenger_black = (mix((unsigned long long)board << 32 ^ (unsigned long long)j->srv.now) & 1) == 0;
		break;
	default:
		challenger_black = true;
		break;
	}
	black = challenger_black ? u->userid : opp.userid;
	white = challenger_black ? opp.userid : u->userid;
	ps = job_lock_new_board(j, board);
	if (ps != PROCESS_OK)
		goto out;
	game_init_shape(g, board, &(struct game_form){ c->hex ? RULES_HEX : RULES_SQUARE, c->size, !c->noswap }, black,
	    white, (int64_t)j->srv.now);
	j->game_loaded = true;
	if (game_user_is_robot(opp.userid))
		g->robot_level = c->level != 0 ? c->level : robot_level(g);	/* kept for the whole game */
	g->unrated = c->unrated;
	g->remind_days = c->remind_days;
	g->timeout_days = c->timeout_days;
	ps = challenge_clock(j, g, c);
	if (ps != PROCESS_OK)
		goto out;
	/* a -timeout not past the server's reminder, without -remind: reminded halfway, not lost unreminded */
	if (c->timeout_days > 1 && c->remind_days == 0 && j->srv.cfg.remind_days != 0 &&
	    (unsigned long)c->timeout_days <= j->srv.cfg.remind_days)
		g->remind_days = c->timeout_days / 2;
	at = strrchr(j->srv.cfg.from_address, '@');
	snprintf(g->thread, sizeof g->thread, "<board-%ld.%lld@%s>", board, (long long)j->srv.now,
	    at != NULL ? at + 1 : "localhost");
	t->ev.what = REPLY_CHALLENGE;
	t->ev.actor = u->userid;
	t->ev.random = c->color == COMMAND_COLOR_RANDOM;
	/* the robot as Black answers at once (MAILCMD_ROBOT): the challenger's one mail tells both */
	ps = job_commit_game(j, t, &(struct job_seats){ true, NULL }, &ok);	/* the commit indexes it (players.h) */
	if (ps == PROCESS_OK && ok) {
		made = true;
		job_detail(j, "ok", "new board %ld: %s (x) - %s (o), %s, swap %s", board, g->black, g->white,
		    game_dimensions(g, false, dims), g->swap ? "on" : "off");
		if (g->robot_level != 0)
			job_detail_add(j, ", robot level %d", g->robot_level);
		if (g->unrated)
			job_detail_add(j, ", unrated");
		if (g->remind_days != 0)
			job_detail_add(j, ", remind after %d day%s", g->remind_days, g->remind_days == 1 ? "" : "s");
		if (g->timeout_days != 0)
			job_detail_add(j, ", lost on time after %d day%s", g->timeout_days,
			    g->timeout_days == 1 ? "" : "s");
		if (g->clock_base != 0) {
			char spec[GAMECLOCK_SPEC_SIZE];

			gameclock_spec(g->clock_base, g->clock_inc, g->clock_cap, spec, sizeof spec);
			job_detail_add(j, ", clock %s%s", spec, g->weekends ? ", stopped at weekends" : "");
		}
		/* counted for max_challenges_per_hour; failing, only this one is not */
		if (throttle_challenge_made(j->srv.st, &j->srv.cfg, u->userid, board, j->srv.now) != STORE_OK)
			msg_warn("cannot record the challenge of board %ld: %s", board,
			    store_error(j->srv.st));
	}
out:
	if (!made && board != 0) {
		job_unlock(j);	/* the new board's lock first, as its number is given back */
		store_release_board_id(j->srv.st, board);	/* the next challenge gets it */
	}
	store_unlock(&limits);	/* counted: other challenges need not wait for the robot's think */
	return ps;
}

/* challenge: a new board against a player or the robot, and the robot's answer when it is Black (MAILCMD_ROBOT). */
enum process_status challenge_run(struct job *j)
{
	struct job_turn t;
	enum process_status ps;

	job_turn_init(&t);
	ps = challenge(j, &t);
	ps = job_turn_answer(j, &t, ps);
	job_turn_free(&t);
	return ps;
}
