/* tournament: a tournament's boards, results, steps and mails (tournament.h). */
#include "commands/services/tournament.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/strbuf.h"
#include "commands/pipeline/boardcommit.h"
#include "commands/pipeline/boardmail.h"
#include "commands/pipeline/hooks.h"
#include "commands/pipeline/job.h"
#include "commands/services/robot.h"
#include "commands/services/tournstart.h"
#include "game/gamefile.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/active.h"
#include "store/players.h"
#include "store/ratings.h"
#include "store/tourns.h"

static enum process_status of_store(enum store_status ss)
{
	return ss == STORE_OK ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/*
 * The board options as the challenge command reads them: a grammar of that
 * one row's slots (mailcmd.c's "upoO"), not the table itself, which would
 * make this service reach every handler (tests/tools/cycles.sh).
 */
static const struct command_syntax challenge_syntax = {
	"challenge", "challenge <userid> <password> <opponent> [options]", "upoO"
};
static const struct command_grammar options_grammar = { &challenge_syntax, 1, sizeof challenge_syntax, NULL };

bool tournament_options(const char *options, struct command *out, char *why, size_t whylen)
{
	char line[COMMAND_LINE_MAX + 1];
	int n;

	/* the challenge command's own parser: what it takes, a tournament takes (mailcmd.c's row) */
	n = snprintf(line, sizeof line, "challenge tournament-a password tournament-b %s", options);
	if (n < 0 || (size_t)n >= sizeof line) {
		snprintf(why, whylen, "the board options are too long");
		return false;
	}
	memset(out, 0, sizeof *out);
	if (command_parse_line(&options_grammar, COMMAND_FROM_BODY, line, (size_t)n, NULL, out) != COMMAND_OK ||
	    out->syntax == NULL || strcmp(out->syntax->name, "challenge") != 0) {
		snprintf(why, whylen, "%s", out->error[0] != '\0' ? out->error : "those are no board options");
		return false;
	}
	if (out->color != COMMAND_COLOR_BLACK || out->level != 0) {
		snprintf(why, whylen, "a tournament's pairings give the colours, and join -robot=N the robot's level: "
		    "no -black, -white, -random or -level");
		return false;
	}
	return true;
}

void tournament_title(const struct tourn *t, char *buf, size_t size)
{
	static const char *const words[] = { "round robin", "Swiss", "knockout", "ladder" };

	snprintf(buf, size, "T%u %s (%s%s)", t->id, t->name, t->twice ? "double " : "", words[t->format]);
}

/* A notice to userid into batch (one batch for a round's mails: tournament.h), or queued alone with batch NULL. */
static enum process_status notice(struct server *srv, struct outbox_batch *batch, const char *userid,
    const char *subject, const char *text, char *err)
{
	struct store_user u;
	struct reply_mail m;
	struct reply_var v = { "text", text };
	enum store_status ss;
	enum mail_status rs;
	enum outbox_status os;

	if (game_user_is_robot(userid))
		return PROCESS_OK;
	ss = store_user_find(srv->st, userid, &u);
	if (ss == STORE_NOT_FOUND)
		return PROCESS_OK;	/* a closed account: nobody to tell */
	if (ss != STORE_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot read the users file: %s", store_error(srv->st));
		return of_store(ss);
	}
	if (server_outbox(srv, err, TOURNAMENT_ERR_MAX) != OUTBOX_OK)
		return PROCESS_TEMPFAIL;
	rs = reply_account(&srv->rc, &(struct reply_to){ u.address, u.fullname }, "notice", subject, &v, 1, &m);
	if (rs != MAIL_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot make the mail to %s: %.200s", userid, srv->rc.err);
		return rs == MAIL_NOMEM ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	if (batch != NULL)
		os = outbox_batch_add(batch, srv->cfg.from_address, m.rcpt, m.msg, m.len);
	else
		os = outbox_enqueue(srv->ob, srv->cfg.from_address, m.rcpt, m.msg, m.len);
	reply_mail_release(&m);
	if (os != OUTBOX_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot queue the mail to %s: %s", userid, outbox_error(srv->ob));
		return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	return PROCESS_OK;
}

enum process_status tournament_notice(struct server *srv, const char *userid, const char *subject,
    const char *text, char *err)
{
	return notice(srv, NULL, userid, subject, text, err);
}

/*
 * A round's mails in one batch: staged, their fsyncs owed and paid once
 * before the first is released (store.h), then released together.  A kill
 * before `mailed:` is written sends them all again (tournament.h, step 3).
 */
static struct outbox_batch *notices_begin(struct server *srv, char *err)
{
	struct outbox_batch *b = NULL;

	if (server_outbox(srv, err, TOURNAMENT_ERR_MAX) != OUTBOX_OK)
		return NULL;
	if (outbox_batch_new(srv->ob, 0, NULL, 0, &b) != OUTBOX_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot queue the mails: %s", outbox_error(srv->ob));
		return NULL;
	}
	store_defer_begin_batch(srv->st);
	return b;
}

static enum process_status notices_end(struct server *srv, struct outbox_batch *b, enum process_status s,
    char *err)
{
	enum outbox_status os;
	bool committed;

	if (s == PROCESS_OK) {
		os = outbox_batch_commit(b);
		if (os != OUTBOX_OK) {
			snprintf(err, TOURNAMENT_ERR_MAX, "cannot queue the mails: %s", outbox_error(srv->ob));
			s = outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		}
	} else {
		outbox_batch_abort(b, &committed);
	}
	if (store_defer_end(srv->st) != STORE_OK && s == PROCESS_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot queue the mails: %s", store_error(srv->st));
		s = PROCESS_TEMPFAIL;
	}
	outbox_batch_free(b);
	return s;
}

/* The boards of t numbered and pending made, those made already left (step 2 of tournament.h: tournstart.h). */
static enum process_status start_boards(struct server *srv, const struct tourn *t, const struct command *o,
    char *err)
{
	struct tournstart_board *boards;
	char title[TOURN_NAME_MAX + 40];
	enum process_status ts;
	size_t i, n = 0, made = 0;

	boards = calloc(t->ngames + 1, sizeof *boards);
	if (boards == NULL) {
		snprintf(err, TOURNAMENT_ERR_MAX, "out of memory starting the boards of T%u", t->id);
		return PROCESS_TEMPFAIL;
	}
	tournament_title(t, title, sizeof title);
	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *tg = &t->games[i];
		struct tournstart_board *b = &boards[n];

		if (tg->board == 0 || tg->white < 0 || tg->result != TOURN_PENDING)
			continue;
		b->board = tg->board;
		b->black = t->players[tg->black].userid;
		b->white = t->players[tg->white].userid;
		b->robot_level = t->players[tg->black].robot + t->players[tg->white].robot;
		b->round = tg->round;
		if (tg->round > 0 && t->format != TOURN_LADDER)
			snprintf(b->notice, sizeof b->notice, "%s, round %d, table %d.", title, tg->round, tg->slot);
		else
			snprintf(b->notice, sizeof b->notice, "%s: a ladder challenge.", title);
		n++;
	}
	ts = tournstart_make(srv, &(struct tournstart){ t->id, o, boards, n }, &made, err, TOURNAMENT_ERR_MAX);
	free(boards);
	return ts;
}

/* The results of t's ended boards, and the steps they end (step 1 of a settle); *changed if any. */
static enum process_status take_results(struct server *srv, struct tourn *t, bool *changed, bool *ended,
    char *err)
{
	struct gamefile_error gerr;
	enum game_status gs;
	enum tourn_step step;
	enum store_status ss;
	enum tourn_result r;
	struct game g;
	size_t i;

	for (i = 0; i < t->ngames; i++) {
		if (t->games[i].result != TOURN_PENDING || t->games[i].board == 0)
			continue;
		ss = boardcommit_read(srv->st, t->games[i].board, false, &g, &gs, &gerr);
		if (ss == STORE_NOT_FOUND)
			continue;	/* not made yet: start_board makes it */
		if (ss != STORE_OK) {
			snprintf(err, TOURNAMENT_ERR_MAX, "cannot read board %ld: %s", t->games[i].board,
			    store_error(srv->st));
			return of_store(ss);
		}
		if (gs != GAME_OK)
			continue;	/* a damaged board: fsck names it; its game waits */
		if (game_over(&g)) {
			r = g.rg.result == RULES_BLACK_WINS ? TOURN_BLACK_WINS : g.rg.result == RULES_WHITE_WINS ?
			    TOURN_WHITE_WINS : TOURN_DRAW;
			if (tourn_result_of(t, t->games[i].board, r, g.last_move > 0 ? g.last_move : (int64_t)srv->now,
			    &step)) {
				*changed = true;
				if (step == TOURN_STEP_END)
					*ended = true;
			}
		}
		game_release(&g);
	}
	return PROCESS_OK;
}

/* Board numbers for the new games (step 1 of tournament.h's protocol), in one write of the counter; *changed if any. */
static enum process_status number_games(struct server *srv, struct tourn *t, bool *changed, char *err)
{
	enum store_status ss;
	size_t i, n = 0, k;
	long *boards;

	for (i = 0; i < t->ngames; i++)
		if (t->games[i].board == 0 && t->games[i].white >= 0 && t->games[i].result == TOURN_PENDING)
			n++;
	if (n == 0)
		return PROCESS_OK;
	boards = malloc(n * sizeof *boards);
	if (boards == NULL) {
		snprintf(err, TOURNAMENT_ERR_MAX, "out of memory numbering the boards of T%u", t->id);
		return PROCESS_TEMPFAIL;
	}
	ss = store_next_board_ids(srv->st, boards, n);
	if (ss != STORE_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot number the boards of T%u: %s", t->id, store_error(srv->st));
		free(boards);
		return of_store(ss);
	}
	for (i = 0, k = 0; i < t->ngames; i++)
		if (t->games[i].board == 0 && t->games[i].white >= 0 && t->games[i].result == TOURN_PENDING)
			t->games[i].board = boards[k++];
	free(boards);
	*changed = true;
	return PROCESS_OK;
}

/*
 * The boards about to be made (numbered, pending, no game file yet) into
 * their players' lists, one append per player (players.h: a board is in
 * its players' lists before its game file exists); *todo how many.
 */
static enum process_status index_boards(struct server *srv, const struct tourn *t, size_t *todo, char *err)
{
	enum process_status s = PROCESS_OK;
	enum store_status ss;
	long *mine;
	size_t i, p, n;
	bool *make;

	*todo = 0;
	make = calloc(t->ngames + 1, sizeof *make);
	mine = malloc((t->ngames + 1) * sizeof *mine);
	if (make == NULL || mine == NULL) {
		snprintf(err, TOURNAMENT_ERR_MAX, "out of memory starting the boards of T%u", t->id);
		s = PROCESS_TEMPFAIL;
		goto out;
	}
	for (i = 0; i < t->ngames; i++) {
		if (t->games[i].board == 0 || t->games[i].white < 0 || t->games[i].result != TOURN_PENDING)
			continue;
		ss = store_board_exists(srv->st, t->games[i].board);
		if (ss == STORE_OK)
			continue;
		if (ss != STORE_NOT_FOUND) {
			snprintf(err, TOURNAMENT_ERR_MAX, "cannot look for board %ld: %s", t->games[i].board,
			    store_error(srv->st));
			s = of_store(ss);
			goto out;
		}
		make[i] = true;
		(*todo)++;
	}
	for (p = 0; p < t->nplayers && *todo > 0; p++) {
		for (i = 0, n = 0; i < t->ngames; i++)
			if (make[i] && (t->games[i].black == (int)p || t->games[i].white == (int)p))
				mine[n++] = t->games[i].board;
		ss = players_add_list(srv->st, srv->cfg.lock_timeout_ms, t->players[p].userid, mine, n);
		if (ss != STORE_OK) {
			snprintf(err, TOURNAMENT_ERR_MAX, "cannot index the boards of %s: %s", t->players[p].userid,
			    store_error(srv->st));
			s = of_store(ss);
			goto out;
		}
	}
out:
	free(make);
	free(mine);
	return s;
}

/* The pairings of round (all of a round robin's) to each of its players. */
static enum process_status mail_round(struct server *srv, const struct tourn *t, char *err)
{
	enum process_status s = PROCESS_OK;
	struct outbox_batch *batch;
	char title[TOURN_NAME_MAX + 40], subject[TOURN_NAME_MAX + 80], *text;
	size_t p;

	tournament_title(t, title, sizeof title);
	if (t->format == TOURN_ROUNDROBIN || t->round <= 1)
		snprintf(subject, sizeof subject, "Oust tournament %s has begun", title);
	else
		snprintf(subject, sizeof subject, "Oust tournament %s: round %d", title, t->round);
	batch = notices_begin(srv, err);
	if (batch == NULL)
		return PROCESS_TEMPFAIL;
	for (p = 0; p < t->nplayers && s == PROCESS_OK; p++) {
		struct strbuf b = STRBUF_INIT;
		size_t i;
		bool any = false;

		if (t->players[p].left)
			continue;
		for (i = 0; i < t->ngames; i++)
			if ((t->games[i].black == (int)p || t->games[i].white == (int)p) &&
			    (t->format == TOURN_ROUNDROBIN || t->games[i].round == t->round))
				any = true;
		if (!any)
			continue;
		strbuf_printf(&b, "%s, directed by %s%s.\n\nYour games (Black moves first; each board's own mail "
		    "follows):\n\n", title, t->director, t->format == TOURN_ROUNDROBIN ? ": every round at once" : "");
		{
			struct tourn tmp = *t;
			size_t ng = 0;
			struct tourn_game *keep = malloc((t->ngames + 1) * sizeof *keep);

			if (keep == NULL) {
				strbuf_release(&b);
				s = PROCESS_TEMPFAIL;
				break;
			}
			for (i = 0; i < t->ngames; i++)
				if (t->format == TOURN_ROUNDROBIN || t->games[i].round == t->round)
					keep[ng++] = t->games[i];
			tmp.games = keep;
			tmp.ngames = ng;
			tourn_text_player_pairings(&tmp, (int)p, &b);
			free(keep);
		}
		strbuf_printf(&b, "\nThe tournament at any time: tournament T%u\n", t->id);
		text = strbuf_finish(&b);
		if (text == NULL) {
			s = PROCESS_TEMPFAIL;
			break;
		}
		s = notice(srv, batch, t->players[p].userid, subject, text, err);
		free(text);
	}
	return notices_end(srv, batch, s, err);
}

/* The final standings and crosstable (and why no next edition: whynot) to every player, and to the director. */
static enum process_status mail_end(struct server *srv, const struct tourn *t, const char *whynot, char *err)
{
	enum process_status s = PROCESS_OK;
	char title[TOURN_NAME_MAX + 40], subject[TOURN_NAME_MAX + 80], *text;
	struct strbuf b = STRBUF_INIT;
	size_t p;

	tournament_title(t, title, sizeof title);
	snprintf(subject, sizeof subject, "Oust tournament %s: final standings", title);
	text = tournament_text(t);
	if (text == NULL)
		return PROCESS_TEMPFAIL;
	if (whynot[0] != '\0') {
		strbuf_printf(&b, "%s\n%s", text, whynot);
		free(text);
		text = strbuf_finish(&b);
		if (text == NULL)
			return PROCESS_TEMPFAIL;
	}
	for (p = 0; p < t->nplayers && s == PROCESS_OK; p++)
		s = tournament_notice(srv, t->players[p].userid, subject, text, err);
	if (s == PROCESS_OK && tourn_find(t, t->director) < 0)
		s = tournament_notice(srv, t->director, subject, text, err);
	free(text);
	return s;
}

/* The robot's first turns on the new boards where it is Black (robot.h does the rest as for any game). */
static void robot_openings(struct server *srv, const struct tourn *t);

enum process_status tournament_settle(struct server *srv, struct tourn *t, char *err)
{
	enum process_status s = PROCESS_OK;
	struct command o;
	char whynot[TOURNAMENT_ERR_MAX] = "";
	bool changed = false, ended = false, mailed = false;
	size_t todo = 0;

	/* full but not begun: the run that filled it died before its begin was written */
	if (t->state == TOURN_OPEN && (int)t->nplayers >= t->max_players && tourn_begin(t, (int64_t)srv->now, err))
		changed = true;
	if (t->state != TOURN_RUNNING && !(t->state == TOURN_FINISHED && !t->final_mailed))
		return PROCESS_OK;
	if (!tournament_options(t->options, &o, err, TOURNAMENT_ERR_MAX)) {
		s = PROCESS_SOFTWARE;
		goto out;
	}
	s = take_results(srv, t, &changed, &ended, err);
	if (s == PROCESS_OK)
		s = number_games(srv, t, &changed, err);
	if (s == PROCESS_OK && changed && of_store(tourns_save(srv->st, t, err)) != PROCESS_OK)
		s = PROCESS_TEMPFAIL;
	/* the lists' fsyncs owed, paid by the boards' first sync, before any game file is installed (tournstart.h) */
	store_defer_begin_batch(srv->st);
	if (s == PROCESS_OK)
		s = index_boards(srv, t, &todo, err);
	if (s == PROCESS_OK && todo > 0)
		s = start_boards(srv, t, &o, err);
	if (store_defer_end(srv->st) != STORE_OK && s == PROCESS_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot index the boards of T%u: %s", t->id, store_error(srv->st));
		s = PROCESS_TEMPFAIL;
	}
	if (todo > 0)
		(void)active_sync_dir(srv->st);	/* the entries of the boards made (a rebuild finds one this misses) */
	if (s != PROCESS_OK)
		goto out;
	if (t->format != TOURN_LADDER && t->state == TOURN_RUNNING && t->mailed < t->round) {
		s = mail_round(srv, t, err);
		t->mailed = t->round;
		mailed = true;
	}
	if (s == PROCESS_OK && t->state == TOURN_FINISHED && !t->final_mailed)
		s = tournament_next_edition(srv, t, whynot, sizeof whynot, err);	/* step 4 */
	if (s == PROCESS_OK && t->state == TOURN_FINISHED && !t->final_mailed) {
		s = mail_end(srv, t, whynot, err);
		t->final_mailed = true;
		mailed = true;
	}
	if (s == PROCESS_OK && mailed)
		s = of_store(tourns_save(srv->st, t, err));
	if (s == PROCESS_OK)
		robot_openings(srv, t);
	if (ended)
		store_log(srv->st, "%s tournament T%u ok: finished", srv->stamp, t->id);
out:
	return s;
}

enum process_status tournament_settle_id(struct server *srv, unsigned id, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum process_status s;
	struct tourn *t = NULL;
	enum store_status ss;

	ss = tourns_lock(srv->st, srv->cfg.lock_timeout_ms, &lock, err);
	if (ss != STORE_OK)
		return of_store(ss);
	ss = tourns_load(srv->st, id, &t, err);
	s = ss == STORE_OK ? tournament_settle(srv, t, err) : of_store(ss);
	tourn_free(t);
	store_unlock(&lock);
	return s;
}

enum process_status tournament_settle_all(struct server *srv, unsigned *n, char *err)
{
	enum process_status s = PROCESS_OK, one;
	unsigned *ids = NULL;
	size_t nids = 0, i;
	char e[TOURNAMENT_ERR_MAX];

	*n = 0;
	if (tourns_list(srv->st, &ids, &nids) != STORE_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot list the tournaments: %s", store_error(srv->st));
		return PROCESS_TEMPFAIL;
	}
	for (i = 0; i < nids; i++) {
		one = tournament_settle_id(srv, ids[i], e);
		if (one != PROCESS_OK) {
			msg_warn("tournament T%u: %s", ids[i], e);
			if (s == PROCESS_OK) {
				s = one;
				snprintf(err, TOURNAMENT_ERR_MAX, "T%u: %.250s", ids[i], e);
			}
		} else {
			(*n)++;
		}
	}
	free(ids);
	return s;
}

char *tournament_text(const struct tourn *t)
{
	struct strbuf b = STRBUF_INIT;
	char title[TOURN_NAME_MAX + 40];
	size_t i;

	tournament_title(t, title, sizeof title);
	strbuf_printf(&b, "%s, directed by %s: %s", title, t->director, tourn_state_name(t->state));
	if (t->state == TOURN_RUNNING && t->format != TOURN_LADDER && t->format != TOURN_ROUNDROBIN)
		strbuf_printf(&b, ", round %d of %d", t->round, t->rounds);
	strbuf_printf(&b, ".\nBoards: %s\n", t->options[0] != '\0' ? t->options : "the server's defaults");
	if (t->previous != 0)
		strbuf_printf(&b, "Edition %d: the edition of T%u before it.\n", t->edition, t->previous);
	if (t->next != 0)
		strbuf_printf(&b, "Next edition: T%u, begun with the players still in this one at its end.\n", t->next);
	else if (t->repeat && t->state != TOURN_FINISHED)
		strbuf_puts(&b, "When it ends, a new edition begins with the players still in it (-repeat).\n");
	if (t->state == TOURN_OPEN) {
		strbuf_printf(&b, "Players (%zu, %d to %d wanted):\n", t->nplayers, t->min_players, t->max_players);
		for (i = 0; i < t->nplayers; i++)
			strbuf_printf(&b, "    %s (%d)%s\n", t->players[i].userid, t->players[i].rating,
			    t->players[i].robot > 0 ? ", the robot" : "");
		strbuf_printf(&b, "\nTo join: join T%u <userid> <password>\n", t->id);
		return strbuf_finish(&b);
	}
	strbuf_puts(&b, "\nStandings\n\n");
	tourn_text_standings(t, &b);
	strbuf_puts(&b, "\nPairings\n\n");
	tourn_text_pairings(t, &b);
	for (i = 0; i < t->nplayers; i++)
		if (t->players[i].left)
			strbuf_printf(&b, "\n%s left %s.\n", t->players[i].userid, t->players[i].annulled ?
			    "before half of their games: none of their results counts" :
			    "after half of their games: their unplayed games are lost by forfeit");
	return strbuf_finish(&b);
}

static void robot_openings(struct server *srv, const struct tourn *t)
{
	long boards[64];
	size_t i, n = 0;

	for (i = 0; i < t->ngames && n < 64; i++)
		if (t->games[i].result == TOURN_PENDING && t->games[i].board != 0 && t->games[i].white >= 0 &&
		    t->players[t->games[i].black].robot > 0)
			boards[n++] = t->games[i].board;
	if (n > 0)
		(void)robot_run(srv, boards, n, NULL);
}

void tournament_hook_flushed(struct server *srv, long board)
{
	const struct transport_ops *ops;
	struct outbox_stats stats;
	struct gamefile_error gerr;
	enum game_status gs;
	char err[TOURNAMENT_ERR_MAX];
	struct game g;
	unsigned id;
	bool over;

	/*
	 * The board says its tournament (its tournament: key, written when the
	 * tournament made it): no other file is read for a board of none.  A
	 * board from before the key is settled by cleanup (tournament_settle_all).
	 */
	if (board == 0 || srv->st == NULL || boardcommit_read(srv->st, board, false, &g, &gs, &gerr) != STORE_OK ||
	    gs != GAME_OK)
		return;
	over = game_over(&g);
	id = g.tournament;
	game_release(&g);
	if (!over || id == 0)
		return;
	if (tournament_settle_id(srv, id, err) != PROCESS_OK)
		msg_warn("tournament T%u: %s (the next delivery or cleanup finishes it)", id, err);
	/* the next round's mails leave with this delivery (a flush already ran: process.c) */
	ops = transport_find(srv->cfg.transport);
	if (srv->ob != NULL && ops != NULL)
		(void)outbox_flush(srv->ob, ops, &srv->cfg, &stats);
}

int tournament_rating(struct server *srv, const struct tourn *t, const char *userid)
{
	const struct ratings_player *p;
	struct ratings r = { 0 };
	char err[RATINGS_ERR_MAX], why[TOURNAMENT_ERR_MAX];
	struct command o;
	struct game g;
	int rating = (int)GLICKO_R0;

	if (!tournament_options(t->options, &o, why, sizeof why) || ratings_load(srv->st, true, &r, err) != STORE_OK)
		return rating;
	/* the class of the tournament's boards: a board of its shape, never written */
	game_init_shape(&g, IDENT_BOARD_MIN, &(struct game_form){ o.hex ? RULES_HEX : RULES_SQUARE, o.size, !o.noswap },
	    userid, "robot", 0);
	p = ratings_find(&r, ratings_class_of(&g), userid);
	if (p != NULL) {
		struct glicko_rating now = ratings_now(p, (int64_t)srv->now);

		rating = (int)(glicko_r(&now) + 0.5);
	}
	game_release(&g);
	ratings_release(&r);
	return rating;
}

enum process_status tournament_resign(struct server *srv, long board, const char *userid, const char *note,
    char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct reply_mail *m = NULL;
	struct gamefile_error gerr;
	enum game_status gs;
	enum process_status s = PROCESS_OK;
	enum store_status ss;
	enum process_status bs;
	struct reply_event ev;
	struct game g;
	int n = 0;

	ss = store_lock_board(srv->st, board, &lock);
	if (ss != STORE_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot lock board %ld: %s", board, store_error(srv->st));
		return of_store(ss);
	}
	ss = boardcommit_read(srv->st, board, true, &g, &gs, &gerr);
	if (ss == STORE_NOT_FOUND || (ss == STORE_OK && gs != GAME_OK))
		goto out;	/* gone, or damaged: nothing to end (fsck names a damaged one) */
	if (ss != STORE_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot read board %ld: %s", board, store_error(srv->st));
		s = of_store(ss);
		goto out;
	}
	if (game_over(&g) || game_color_of(&g, userid) == RULES_EMPTY)
		goto release;
	if (server_outbox(srv, err, TOURNAMENT_ERR_MAX) != OUTBOX_OK ||
	    outbox_recover(srv->ob, board, NULL) != OUTBOX_OK || game_resign(&g, userid, (int64_t)srv->now) != GAME_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot end board %ld", board);
		s = PROCESS_TEMPFAIL;
		goto release;
	}
	g.remind = 0;
	memset(&ev, 0, sizeof ev);
	ev.what = REPLY_RESIGN;
	ev.actor = userid;
	ev.first = g.nturns;
	ev.comment = "";
	ev.notice = note;
	bs = boardmail_make(srv, &g, &ev, NULL, &m, &n);
	if (bs != PROCESS_OK) {
		if (boardmail_status_store(bs))
			snprintf(err, TOURNAMENT_ERR_MAX, "cannot read the users file: %s", store_error(srv->st));
		else
			snprintf(err, TOURNAMENT_ERR_MAX, "cannot make the mails of board %ld: %.200s", board, srv->rc.err);
		s = boardmail_status_temporary(bs) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto release;
	}
	switch (boardcommit_write(srv, &g, m, n, err, TOURNAMENT_ERR_MAX)) {
	case PROCESS_OK:
		store_log(srv->st, "%s tournament board=%ld ok: %s left the tournament, the board resigned", srv->stamp,
		    board, userid);
		break;
	case PROCESS_TEMPFAIL:
		s = PROCESS_TEMPFAIL;
		break;
	default:
		s = PROCESS_SOFTWARE;
		break;
	}
	boardmail_free(m, n);
release:
	game_release(&g);
out:
	store_unlock(&lock);
	return s;
}

enum process_status tournament_begin(struct server *srv, struct tourn *t, bool *begun, char *why)
{
	enum process_status s;

	*begun = false;
	if (!tourn_begin(t, (int64_t)srv->now, why))
		return PROCESS_OK;
	*begun = true;
	/* begun (a ladder has no game yet); then step 1 of tournament.h: the board numbers before any board */
	s = of_store(tourns_save(srv->st, t, why));
	if (s == PROCESS_OK)
		s = tournament_settle(srv, t, why);
	if (s == PROCESS_OK)
		store_log(srv->st, "%s tournament T%u ok: begun, %zu players, %zu games", srv->stamp, t->id, t->nplayers,
		    t->ngames);
	return s;
}

enum process_status tournament_reply(struct job *j, const char *subject, const char *text)
{
	struct reply_var v = { "text", text };
	struct reply_mail m;
	enum mail_status rs;

	rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, j->cmd.userid) }, "notice", subject, &v, 1, &m);
	return job_send(j, rs, &m);
}

enum process_status tournament_ladder_challenge(struct job *j)
{
	const struct command *c = &j->cmd;
	struct store_lock lock = STORE_LOCK_INIT;
	char err[TOURNAMENT_ERR_MAX], title[TOURN_NAME_MAX + 40], subject[TOURN_NAME_MAX + 160], text[600];
	struct tourn_game g = { 0, 1, 1, 0, 0, 0, TOURN_PENDING };
	enum process_status s;
	enum process_status ps;
	struct tourn *t = NULL;
	int me, them;
	size_t i;

	ps = tournament_open(j, c->tournament, &lock, &t);
	if (ps != PROCESS_OK || t == NULL)
		goto out;
	me = tourn_find(t, j->user.userid);
	them = tourn_find(t, c->opponent);
	if (t->format != TOURN_LADDER || t->state != TOURN_RUNNING) {
		ps = job_refuse(j, NULL, "T%u is no running ladder: -ladder= names a ladder that has begun", t->id);
		goto out;
	}
	if (me < 0 || them < 0 || t->players[me].left || t->players[them].left) {
		ps = job_refuse(j, NULL, "%s is not on the ladder of T%u (join T%u <userid> <password>)",
		    me < 0 || t->players[me].left ? j->user.userid : c->opponent, t->id, t->id);
		goto out;
	}
	(void)tourn_ladder_idle(t, (int64_t)j->srv.now);
	if (!tourn_ladder_may(t, me, them, err)) {
		ps = job_refuse(j, NULL, "%s", err);
		goto out;
	}
	for (i = 0; i < t->ngames; i++)
		if (t->games[i].round > g.round)
			g.round = t->games[i].round;
	g.round++;
	/* the challenger is Black unless -white: slot 2 says White challenged (tournfile.h) */
	g.black = c->color == COMMAND_COLOR_WHITE ? them : me;
	g.white = c->color == COMMAND_COLOR_WHITE ? me : them;
	g.slot = c->color == COMMAND_COLOR_WHITE ? 2 : 1;
	if (tourn_add_game(t, &g) < 0) {
		ps = job_no_memory(j);
		goto out;
	}
	s = tournament_settle(&j->srv, t, err);
	if (s != PROCESS_OK) {
		job_detail(j, s == PROCESS_TEMPFAIL ? "tempfail" : "failed", "T%u: %s", t->id, err);
		ps = s == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	tournament_title(t, title, sizeof title);
	snprintf(subject, sizeof subject, "Oust tournament %s: %s challenges %s", title, j->user.userid, c->opponent);
	snprintf(text, sizeof text, "Your ladder challenge of %s (place %d; you are at place %d) is board %ld: its "
	    "mail follows. Win it and you take place %d.\n", c->opponent, t->players[them].place,
	    t->players[me].place, t->games[t->ngames - 1].board, t->players[them].place);
	ps = tournament_reply(j, subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "ladder T%u: %s (place %d) challenges %s (place %d) on board %ld", t->id,
		    j->user.userid, t->players[me].place, c->opponent, t->players[them].place, t->games[t->ngames - 1].board);
out:
	tourn_free(t);
	store_unlock(&lock);
	return ps;
}

enum process_status tournament_open(struct job *j, unsigned id, struct store_lock *lock, struct tourn **t)
{
	char err[TOURNAMENT_ERR_MAX];
	enum process_status s;
	enum store_status ss;

	*t = NULL;
	ss = tourns_lock(j->srv.st, j->srv.cfg.lock_timeout_ms, lock, err);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the tournaments");
	ss = tourns_load(j->srv.st, id, t, err);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "there is no tournament T%u: send \"tournaments\" for the list", id);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, err);
	/* what a crashed run left (boards to make, mails to send) is finished first */
	s = tournament_settle(&j->srv, *t, err);
	if (s != PROCESS_OK) {
		tourn_free(*t);
		*t = NULL;
		job_detail(j, s == PROCESS_TEMPFAIL ? "tempfail" : "failed", "T%u: %s", id, err);
		return s == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	return PROCESS_OK;
}

enum process_status tournament_forget(struct server *srv, long board, const char *userid, char *err)
{
	enum process_status s = PROCESS_OK;
	struct store_lock lock = STORE_LOCK_INIT;
	enum tourn_step step;
	unsigned *ids = NULL;
	size_t n = 0, i;
	bool changed;
	int p;

	if (tourns_list(srv->st, &ids, &n) != STORE_OK) {
		snprintf(err, TOURNAMENT_ERR_MAX, "cannot list the tournaments: %s", store_error(srv->st));
		return PROCESS_TEMPFAIL;
	}
	if (n == 0)
		goto out;
	if (tourns_lock(srv->st, srv->cfg.lock_timeout_ms, &lock, err) != STORE_OK) {
		s = PROCESS_TEMPFAIL;
		goto out;
	}
	for (i = 0; i < n && s == PROCESS_OK; i++) {
		struct tourn *t = NULL;

		if (tourns_load(srv->st, ids[i], &t, err) != STORE_OK)
			continue;	/* damaged: fsck names it */
		changed = board != 0 && tourn_board_gone(t, board, &step);
		p = userid != NULL ? tourn_find(t, userid) : -1;
		if (p >= 0 && t->state == TOURN_OPEN) {
			changed = tourn_remove_player(t, p);
		} else if (p >= 0 && t->state == TOURN_RUNNING && !t->players[p].left) {
			tourn_leave(t, p, &step);
			changed = true;
		}
		if (changed) {
			s = of_store(tourns_save(srv->st, t, err));
			if (s == PROCESS_OK)
				s = tournament_settle(srv, t, err);
		}
		tourn_free(t);
	}
	store_unlock(&lock);
out:
	free(ids);
	return s;
}

/* fsck: one problem, as fsck.c's report() writes it. */
static void problem(FILE *out, unsigned *problems, unsigned id, const char *msg)
{
	fprintf(out, "%s/%u: %s\n", TOURNS_DIR, id, msg);
	(*problems)++;
}

static int board_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* fsck: the boards that name a tournament: each listed by it (listed: the boards of every tournament, sorted). */
static void fsck_named(struct store *st, const long *boards, size_t nboards, const long *listed, size_t nlisted,
    FILE *out, unsigned *problems)
{
	char msg[TOURNS_ERR_MAX + 100];
	struct gamefile_error gerr;
	enum game_status gs;
	struct game g;
	size_t i;

	for (i = 0; i < nboards; i++) {
		/* no tournament lists any board: listed may be NULL, which bsearch must not get (C11 7.22.5) */
		if (nlisted > 0 && bsearch(&boards[i], listed, nlisted, sizeof *listed, board_cmp) != NULL)
			continue;
		if (boardcommit_read(st, boards[i], false, &g, &gs, &gerr) != STORE_OK || gs != GAME_OK)
			continue;	/* the board's own check names it */
		if (g.tournament != 0) {
			snprintf(msg, sizeof msg, "board %ld says it is a game of T%u, which does not list it", boards[i],
			    g.tournament);
			problem(out, problems, g.tournament, msg);
		}
		game_release(&g);
	}
}

void tournament_fsck(struct store *st, const long *boards, size_t nboards, FILE *out, unsigned *problems)
{
	char err[TOURNS_ERR_MAX], msg[TOURNS_ERR_MAX + 100];
	struct gamefile_error gerr;
	enum game_status gs;
	unsigned *ids = NULL;
	size_t n = 0, i, k, nlisted = 0, alisted = 0;
	long *listed = NULL, *bigger;
	struct game g;

	if (tourns_list(st, &ids, &n) != STORE_OK) {
		fprintf(out, "%s: %s\n", TOURNS_DIR, store_error(st));
		(*problems)++;
		return;
	}
	for (i = 0; i < n; i++) {
		struct tourn *t = NULL;

		if (tourns_load(st, ids[i], &t, err) != STORE_OK) {
			problem(out, problems, ids[i], err);
			continue;
		}
		tournament_edition_fsck(st, t, out, problems);
		for (k = 0; k < t->ngames; k++) {
			const struct tourn_game *tg = &t->games[k];
			enum store_status ss;

			if (tg->board == 0 || tg->white < 0)
				continue;
			if (nlisted == alisted) {
				alisted = alisted > 0 ? alisted * 2 : 256;
				bigger = realloc(listed, alisted * sizeof *listed);
				if (bigger == NULL) {
					fprintf(out, "%s: out of memory\n", TOURNS_DIR);
					(*problems)++;
					tourn_free(t);
					goto out;
				}
				listed = bigger;
			}
			listed[nlisted++] = tg->board;
			ss = boardcommit_read(st, tg->board, false, &g, &gs, &gerr);
			if (ss == STORE_NOT_FOUND) {
				/* a start a crash cut short: a note, not a problem (cleanup finishes it) */
				if (tg->result == TOURN_PENDING)
					fprintf(out, "%s/%u: note: board %ld of its game %s - %s is not made yet (the next "
					    "delivery on it or cleanup makes it)\n", TOURNS_DIR, ids[i], tg->board,
					    t->players[tg->black].userid, t->players[tg->white].userid);
				continue;
			}
			if (ss != STORE_OK || gs != GAME_OK)
				continue;	/* the board's own check names it */
			if (strcmp(g.black, t->players[tg->black].userid) != 0 ||
			    strcmp(g.white, t->players[tg->white].userid) != 0) {
				snprintf(msg, sizeof msg, "board %ld is %s - %s, its game %s - %s", tg->board, g.black, g.white,
				    t->players[tg->black].userid, t->players[tg->white].userid);
				problem(out, problems, ids[i], msg);
			}
			if (g.tournament == 0) {
				fprintf(out, "%s/%u: note: board %ld has no tournament: line (made before it was written); "
				    "cleanup settles its end\n", TOURNS_DIR, ids[i], tg->board);
			} else if (g.tournament != t->id) {
				snprintf(msg, sizeof msg, "board %ld says it is a game of T%u", tg->board, g.tournament);
				problem(out, problems, ids[i], msg);
			}
			game_release(&g);
		}
		tourn_free(t);
	}
	if (nlisted > 0)
		qsort(listed, nlisted, sizeof *listed, board_cmp);
	fsck_named(st, boards, nboards, listed, nlisted, out, problems);
out:
	free(listed);
	free(ids);
}
