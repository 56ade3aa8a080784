/* reply_error: the error replies, about a board or none (reply.h). */
#include "mail/reply_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/board.h"
#include "mail/tap.h"
#include "mail/token.h"

/*
 * An error "why. Send: the command" (or "why? Send: ...") as its parts:
 * the reason, ending with its punctuation ('.' added when it has none),
 * and the command to send as a paragraph of its own ("" when there is
 * none), indented as the echoed command is, so it can be copied without
 * a full stop stuck to it.  False when a part does not fit.
 */
static bool split_send(const char *error, char *why, size_t wsize, char *send, size_t ssize)
{
	const char *at = NULL, *p = error;
	char *q;
	size_t n, w;

	while ((p = strstr(p, " Send: ")) != NULL) {
		if (p > error && (p[-1] == '.' || p[-1] == '?'))
			at = p;
		p++;
	}
	n = at != NULL ? (size_t)(at - error) : strlen(error);
	if (n > 0 && error[n - 1] == '.')
		n--;
	w = (size_t)snprintf(why, wsize, "%.*s%s", (int)n, error,
	    n > 0 && (error[n - 1] == '?' || error[n - 1] == '!') ? "" : ".");
	if (w >= wsize)
		return false;
	send[0] = '\0';
	if (at == NULL)
		return true;
	w = (size_t)snprintf(send, ssize, "\nSend this command instead:\n\n    %s\n", at + 7);
	if (w >= ssize)
		return false;
	/* the command to copy stands on one line, never broken */
	for (q = send + strlen("\nSend this command instead:\n\n    "); *q != '\0' && *q != '\n'; q++)
		if (*q == ' ')
			*q = REPLY_GLUE;
	return true;
}

enum mail_status reply_error(struct reply_ctx *rc, const struct reply_to *to,
    const struct reply_refused *r, struct reply_mail *out)
{
	long board = r->board;
	const struct game *g = r->g;
	const struct reply_stop *stop = r->stop;
	const char *command = r->command, *error = r->error;
	char drawing[BOARD_TEXT_MAX], subject[200], status[200];
	struct text t = { 0 };
	enum mail_status st = MAIL_NOMEM;
	char *section = NULL, *kept, intro[REPLY_NOTE_MAX + REPLY_ERR_MAX + 64];
	char why[REPLY_ERR_MAX], send[REPLY_ERR_MAX + 40], *stopped = NULL, *stopped_plain = NULL, *note = NULL;
	struct html_mail hm = { .title = subject };
	struct reply_parts rp = { .tmpl = "error", .subject = subject, .to_addr = to->addr, .to_name = to->name,
	    .g = g };
	struct game *shown = NULL;
	char tap_turn[24];

	if (board > 0)
		snprintf(subject, sizeof subject, "Oust Board %ld error", board);
	else
		snprintf(subject, sizeof subject, "Oust error");
	if (rc->error_token != NULL && g != NULL && g->board == board && !game_over(g)) {
		int part = 0;
		const char *p;

		/* a turn begun by reply (game.h's pending): its part counted */
		/* the part is the mover's alone: the opponent never learns of it */
		for (p = g->pending; *p != '\0' && strcmp(game_player_to_move(g), rc->error_player) == 0; p++)
			part += p == g->pending || *p == ',';
		/*
		 * A stale tap while the part waits (issue 40): the board the
		 * mover plays from is the one after the part, its links going on
		 * from it, as the part's own mail (move_token.c)
		 */
		if (part > 0 && (shown = tap_after_part(g, &part)) != NULL)
			g = shown;
		if (part > 0)
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d.%d [%s]",
			    g->rg.turn, part, rc->error_token);
		else
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d [%s]", g->rg.turn,
			    rc->error_token);
		if ((part == 0 || g == shown) && strcmp(game_player_to_move(g), rc->error_player) == 0) {
			hm.tap_subject = subject;
			/* the turn on the links' first line too, as a board mail's (tap.h) */
			if (part > 0)
				snprintf(tap_turn, sizeof tap_turn, "#%d.%d", g->rg.turn, part);
			else
				snprintf(tap_turn, sizeof tap_turn, "#%d", g->rg.turn);
			hm.tap_turn = tap_turn;
		}
		rp.g = g;
	}
	if (g != NULL) {
		board_render_game(g, drawing);
		reply_text_status(g, status, sizeof status);
		kept = reply_verbatim(drawing);	/* reply_wrap leaves the drawing as it is */
		if (kept == NULL)
			goto out;
		if (stop != NULL && stop->k > 0) {
			/* the position where the turn stopped first, then the board as it stands */
			stopped = reply_board_stop(g, stop, false);
			stopped_plain = reply_board_stop(g, stop, true);
			if (stopped == NULL || stopped_plain == NULL) {
				free(kept);
				goto out;
			}
			tputs(&t, stopped);
		}
		tprintf(&t, "Board %ld now (%s)%s:\n\n%s", g->board, status,
		    stopped != NULL ? ", before your turn" : g == shown ? ", after the part you began" : "", kept);
		free(kept);
	}
	section = tfinish(&t);
	if (section == NULL)
		goto out;
	if (!split_send(error, why, sizeof why, send, sizeof send))
		goto out;
	if (hm.tap_subject != NULL && rc->error_suggest != NULL && rc->error_suggest[0] != '\0') {
		/* the one placement meant, as one tap link (tap.h's: the turn on the body's first line) */
		char *subj = token_uri_encode(subject);

		if (subj == NULL)
			goto out;
		snprintf(why + strlen(why), sizeof why - strlen(why), "\n\nTap to play %s: mailto:%s?subject=%s"
		    "&body=%%23%d%%0A%s", rc->error_suggest, rc->cfg->from_address, subj, g->rg.turn, rc->error_suggest);
		free(subj);
	}
	/* a reply to an old board mail: the note, then the board, and the command to send only after them */
	if (g != NULL && rc->note[0] != '\0') {
		struct text nt = { 0 };

		tprintf(&nt, "%s\n\n%s\n", rc->note, section);
		note = tfinish(&nt);
		if (note == NULL)
			goto out;
		section[0] = '\0';
	}
	var(&rp.vs, "note_section", note != NULL ? note : "");
	var(&rp.vs, "error", why);
	var(&rp.vs, "send_section", send);
	var(&rp.vs, "command", command != NULL && command[0] != '\0' ? command : "(no command found)");
	var(&rp.vs, "board_section", section);
	if (g != NULL) {
		/* the text part's parts: the note on an old mail, the reason, the command
		 * to send set apart, the command echoed */
		snprintf(intro, sizeof intro, "%s%s%s", rc->note, rc->note[0] != '\0' ? "\n" : "", why);
		hm.intro = intro;
		hm.echo = command != NULL && command[0] != '\0' ? command : "(no command found)";
		hm.send = send[0] != '\0' ? strstr(send, "    ") : NULL;
		hm.stop = stopped_plain;
		hm.upto = g->nturns;
		rp.hm = &hm;
	}
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(stopped);
	free(stopped_plain);
	free(section);
	free(note);
	free(shown);
	return st;
}
