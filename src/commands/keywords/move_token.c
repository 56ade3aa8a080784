/* move_token: a move by reply token, continued or kept in parts (move_int.h). */
#include "commands/keywords/move_int.h"

#include <stdlib.h>
#include <string.h>

#include "commands/pipeline/job.h"
#include "game/rules.h"

/* The placements of g's pending part (game.h). */
static int pending_count(const struct game *g)
{
	const char *p;
	int n = 0;

	for (p = g->pending; *p != '\0'; p++)
		n += p == g->pending || *p == ',';
	return n;
}

enum process_status move_token_continue(struct job *j, const struct game *g, bool *refused)
{
	struct command *c = &j->cmd;
	int n = pending_count(g), i;
	const char *p, *e;
	size_t len;

	*refused = false;
	if (j->token.part != n) {
		*refused = true;
		if (n == 0)
			return job_refuse(j, g, "you replied to a mail of a turn in parts, and turn %d of board %ld was "
			    "not continued: the position has changed, so nothing was played. Look at the board below; "
			    "to play, reply to this mail", g->rg.turn, g->board);
		return job_refuse(j, g, "you replied to an older mail of turn %d, which you have since begun with %s: "
		    "the position has changed, so nothing was played. The board below is the one after %s: tap a "
		    "point of it or reply to this mail to go on with the turn (its Subject ends #%d.%d), or send "
		    "the whole turn with your password", g->rg.turn, g->pending, g->pending, g->rg.turn, n);
	}
	if (n == 0)
		return PROCESS_OK;
	if (c->nplacements + (size_t)n > COMMAND_PLACEMENTS_MAX) {
		*refused = true;
		return job_refuse(j, g, "the turn is longer than %d placements", COMMAND_PLACEMENTS_MAX);
	}
	/* the part sent before, then the reply's: one whole turn, checked and played as such */
	memmove(c->placements + n, c->placements, c->nplacements * sizeof c->placements[0]);
	for (i = 0, p = g->pending; i < n; i++, p = e + 1) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		len = (size_t)(e - p) < sizeof c->placements[i].name ? (size_t)(e - p) : sizeof c->placements[i].name - 1;
		memset(&c->placements[i], 0, sizeof c->placements[i]);
		memcpy(c->placements[i].name, p, len);
		if (*e == '\0')
			e--;	/* the loop's e + 1 stays on the NUL */
	}
	c->nplacements += (size_t)n;
	return PROCESS_OK;
}

enum process_status move_token_keep_part(struct job *j, struct game *g)
{
	const struct command *c = &j->cmd;
	struct game *shown = malloc(sizeof *shown);
	int *pts = malloc(RULES_MAX_POINTS * sizeof *pts), np;
	struct reply_event ev;
	struct reply_player p = { j->user.userid, j->user.address, j->user.fullname, REPLY_ROLE_PLAYER, j->token_now };
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	char notice[GAME_PENDING_MAX + 400], why[200];
	size_t i, used = 0;
	bool done = false;

	if (shown == NULL || pts == NULL) {
		free(shown);
		free(pts);
		return job_no_memory(j);
	}
	for (i = 0; i < c->nplacements && used + 5 < sizeof g->pending; i++)
		used += (size_t)snprintf(g->pending + used, sizeof g->pending - used, "%s%s", i > 0 ? "," : "",
		    c->placements[i].name);
	*shown = *g;	/* the history shared, read only: the board after the part, for the mover alone */
	if (i < c->nplacements || !game_pending_points(g, pts, &np, &shown->rg, why, sizeof why)) {
		g->pending[0] = '\0';
		free(shown);
		free(pts);
		return job_refuse(j, g, "the turn cannot be kept in parts: %s", i < c->nplacements ? "too long" : why);
	}
	snprintf(notice, sizeof notice, "You began turn %d with %s, which captured: place again to finish it "
	    "by reply. Only you see this board: until your turn ends, your opponent and the board's page see the "
	    "position before it. A whole turn sent with your password replaces this part.", g->rg.turn, g->pending);
	memset(&ev, 0, sizeof ev);
	ev.what = REPLY_MOVE;
	ev.actor = j->user.userid;
	ev.comment = "";
	ev.notice = notice;
	ev.part = np;
	rs = reply_game(&j->srv.rc, shown, &ev, &p, &m);
	free(shown);
	free(pts);
	if (rs != MAIL_OK)
		return job_reply_failure(j, rs);
	/* the game file holds the part; only the mover hears of it (nobody else sees a half turn) */
	ps = job_commit_quiet(j, &m, 1, &done);
	reply_mail_release(&m);
	if (ps == PROCESS_OK && done)
		job_detail(j, "ok", "turn %d: %s began it with %s by reply (pending)", g->rg.turn, j->user.userid,
		    g->pending);
	return ps;
}
