/* tokenreply: a reply by token read (the incoming half of replytoken.h).  See tokenreply.h. */
#include "commands/pipeline/tokenreply.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/pipeline/replytoken.h"
#include "commands/pipeline/robotreply.h"
#include "game/gamefile.h"
#include "store/tokens.h"

/* The words of the reply's text line: up to 3, lower case, into w; how many there are. */
static size_t words_of(const char *line, char w[3][16])
{
	size_t n = 0, len;

	for (;;) {
		while (isspace((unsigned char)*line))
			line++;
		if (*line == '\0')
			return n;
		len = strcspn(line, " \t\r\n");
		if (n < 3) {
			snprintf(w[n], sizeof w[n], "%.*s", (int)(len < 15 ? len : 15), line);
			for (char *c = w[n]; *c != '\0'; c++)
				*c = (char)tolower((unsigned char)*c);
			/* "swap." or "yes!" as people write them */
			if (len < 15 && (w[n][len - 1] == '.' || w[n][len - 1] == '!'))
				w[n][len - 1] = '\0';
		}
		n++;
		line += len;
	}
}

/* j->cmd becomes the command called name of the table, for the token's board and turn. */
static void become(struct job *j, const char *name)
{
	const struct mail_command *mc = cmdtable_find(&mailcmd_commands, name);

	j->cmd.syntax = &mc->syntax;
	j->cmd.grammar = &mailcmd_grammar;
	j->cmd.board = j->token.board;
	j->cmd.turn = j->token.turn;
	j->cmd.userid[0] = '\0';
	j->cmd.password[0] = '\0';
	j->cmd.error[0] = '\0';
	j->mc = mc;
	j->cmd_status = COMMAND_OK;
}

/*
 * "b5." or "D3, F6!" as a phone writes them: the text's line, its full
 * stop or exclamation mark dropped, placements alone; they go into j->cmd.
 */
static bool placements_with_stop(struct job *j)
{
	struct command *alt;
	size_t len = strlen(j->cmd.line);
	bool ok;

	if (j->cmd.source != COMMAND_FROM_BODY)
		return false;
	while (len > 0 && (j->cmd.line[len - 1] == ' ' || j->cmd.line[len - 1] == '\t'))
		len--;
	if (len < 3 || (j->cmd.line[len - 1] != '.' && j->cmd.line[len - 1] != '!'))
		return false;
	alt = calloc(1, sizeof *alt);
	if (alt == NULL)
		return false;
	ok = command_parse_line(&mailcmd_grammar, COMMAND_FROM_BODY, j->cmd.line, len - 1, NULL, alt) ==
	    COMMAND_PLACEMENTS_ONLY;
	if (ok) {
		alt->body_rest = j->cmd.body_rest;
		j->cmd = *alt;
	}
	free(alt);
	return ok;
}

/*
 * "#6" or "#6.1" alone on one of the first lines of the sender's own
 * text: the turn a tapped link plays (tap.h); into *t.
 */
static bool turn_in_body(const char *body, struct token_subject *t)
{
	const char *s = body, *e;
	char *end;
	long turn, part = 0;
	int lines = 0;

	for (; s != NULL && *s != '\0' && lines < 3; s = *e != '\0' ? e + 1 : e) {
		e = s + strcspn(s, "\n");
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s == e || *s == '\r')
			continue;	/* blank lines are not counted */
		lines++;
		if (*s != '#' || s[1] < '1' || s[1] > '9')
			continue;
		turn = strtol(s + 1, &end, 10);
		if (*end == '.' && end[1] >= '1' && end[1] <= '9')
			part = strtol(end + 1, &end, 10);
		while (end < e && (*end == ' ' || *end == '\t' || *end == '\r'))
			end++;
		if (end != e || turn >= 1000000 || part >= 1000)
			continue;
		t->turn = (int)turn;
		t->part = (int)part;
		return true;
	}
	return false;
}

/*
 * The turn the reply answers, when its Subject does not say it (the
 * Subject is the whole game's, reply.c): the tapped link's first line,
 * else the board mail it answers (In-Reply-To, References: mailfind.h).
 */
static void turn_answered(struct job *j)
{
	const struct mailfind_answered *a = &j->found.answered;

	if (j->token.turn > 0 || turn_in_body(j->in.body, &j->token))
		return;
	if (a->kind == MAILFIND_BOARD && a->board == j->token.board) {
		j->token.turn = a->turns + 1;
		j->token.part = a->part;
	}
}

/* j->cmd becomes the move of the placement text (a vertex, "B2"), as if replied alone; false if it does not parse. */
static bool placement_alone(struct job *j, const char *text)
{
	struct command *alt = calloc(1, sizeof *alt);
	bool ok;

	if (alt == NULL)
		return false;
	ok = command_parse_line(&mailcmd_grammar, COMMAND_FROM_BODY, text, strlen(text), NULL, alt) ==
	    COMMAND_PLACEMENTS_ONLY;
	if (ok) {
		alt->body_rest = j->cmd.body_rest;
		j->cmd = *alt;
	}
	free(alt);
	return ok;
}

/*
 * "B 2", "b-2", "B2." as phones and people write one placement: a letter,
 * blanks or a hyphen, one or two digits, a full stop or exclamation mark;
 * "B2" into out.  False for anything else.
 */
static bool loose_placement(const char *line, char out[8])
{
	const char *s = line;
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len > 0 && strchr(" \t\r.!", s[len - 1]) != NULL)
		len--;
	if (len < 2 || !isalpha((unsigned char)s[0]))
		return false;
	out[0] = (char)toupper((unsigned char)s[0]);
	s++;
	len--;
	while (len > 0 && (*s == ' ' || *s == '\t' || *s == '-'))
		s++, len--;
	if (len < 1 || len > 2 || !isdigit((unsigned char)s[0]) || (len == 2 && !isdigit((unsigned char)s[1])))
		return false;
	snprintf(out + 1, 7, "%.*s", (int)len, s);
	return true;
}

/*
 * The one placement a line of prose holds ("Oops, D3 then."): its words
 * that are a letter and one or two digits; "D3" into out when there is
 * exactly one, else false.
 */
static bool placement_in_prose(const char *line, char out[8])
{
	const char *s = line, *w;
	size_t n, found = 0;

	while (*s != '\0') {
		while (*s != '\0' && !isalnum((unsigned char)*s))
			s++;
		for (w = s; *s != '\0' && isalnum((unsigned char)*s); s++)
			;
		n = (size_t)(s - w);
		if (n >= 2 && n <= 3 && isalpha((unsigned char)w[0]) && isdigit((unsigned char)w[1]) &&
		    (n == 2 || isdigit((unsigned char)w[2])) && w[1] != '0') {
			if (found++ == 0) {
				out[0] = (char)toupper((unsigned char)w[0]);
				snprintf(out + 1, 7, "%.*s", (int)(n - 1), w + 1);
			}
		}
	}
	return found == 1;
}

/* Is one of the token's board's players the robot?  Read without the lock: a game file is replaced whole. */
static bool robot_board(struct job *j)
{
	struct game g;
	char *text = NULL;
	size_t len;
	bool yes = false;

	if (store_board_read(j->srv.st, j->token.board, &text, &len) != STORE_OK)
		return false;
	if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK)
		yes = game_user_is_robot(g.black) || game_user_is_robot(g.white);
	free(text);
	return yes;
}

/*
 * The game-end mail's links (issue 40): "review" (or "review <board>" of
 * the token's board) asks for its review; "challenge <opponent>
 * [options]" is its return game, the token standing for the password
 * (keywords/challenge.c checks that it is that board's opponent, once);
 * into j->cmd, or j->token_error when it does not parse.  False for any
 * other text.
 */
static bool after_the_game(struct job *j)
{
	const char *line = j->cmd.line + strspn(j->cmd.line, " \t");
	char buf[COMMAND_LINE_MAX + 64], *end;
	struct command *alt;
	long board;
	bool ok;

	if (j->cmd.source != COMMAND_FROM_BODY)
		return false;
	if (strncasecmp(line, "review", 6) == 0 && (line[6] == '\0' || isspace((unsigned char)line[6]))) {
		board = strtol(line + 6, &end, 10);
		if (end[strspn(end, " \t\r.!")] != '\0')
			return false;
		if (end != line + 6 && board != j->token.board) {
			/* the token stands for the password on its own board only */
			snprintf(j->token_error, sizeof j->token_error, "a review by reply to a mail of board %ld is "
			    "board %ld's: for the review of board %ld, send review %ld <userid> <password>",
			    j->token.board, j->token.board, board, board);
			return true;
		}
		become(j, "review");
		return true;
	}
	if (strncasecmp(line, "challenge", 9) != 0 || !isspace((unsigned char)line[9]))
		return false;
	/* parsed as the whole command, a user id and password standing in for the token's (cleared after) */
	if ((size_t)snprintf(buf, sizeof buf, "challenge tokenreply x %s", line + 10) >= sizeof buf)
		return false;
	alt = calloc(1, sizeof *alt);
	if (alt == NULL)
		return false;
	ok = command_parse_line(&mailcmd_grammar, COMMAND_FROM_BODY, buf, strlen(buf), NULL, alt) == COMMAND_OK &&
	    command_is(alt, "challenge");
	if (ok) {
		alt->body_rest = j->cmd.body_rest;
		j->cmd = *alt;
		j->cmd.userid[0] = '\0';
		j->cmd.password[0] = '\0';
		j->mc = cmdtable_find(&mailcmd_commands, "challenge");
		j->cmd_status = COMMAND_OK;
	} else {
		/* never a chat to the opponent: the challenge meant is refused, saying why */
		snprintf(j->token_error, sizeof j->token_error, "your challenge by reply to the mail of board %ld is "
		    "not one the server reads (%.300s): a return game by reply is challenge <opponent> [options], as "
		    "the end mail's link writes it", j->token.board, alt->error[0] != '\0' ? alt->error :
		    "not a challenge");
	}
	free(alt);
	return true;
}

bool tokenreply_parse(struct job *j)
{
	char loose[8];
	char w[3][16];
	size_t n;

	if (!token_from_subject(j->in.subject, &j->token))
		return false;
	/* a whole command, password and all, is that command */
	if (j->cmd_status == COMMAND_OK)
		return false;
	j->by_token = true;
	j->token_error[0] = '\0';
	/* an answer to a chat mail: its Subject, or the chat mail it answers (mailfind.h) */
	if (j->cmd_status == COMMAND_CHAT_ANSWER || j->found.answered.kind == MAILFIND_CHAT)
		j->token.chat = true;
	j->board = j->token.board;
	if (after_the_game(j))
		return true;
	turn_answered(j);
	if (j->token.turn == 0 && !j->token.chat) {
		/* never played on a position the player did not see (the old-turn guard needs the turn) */
		snprintf(j->token_error, sizeof j->token_error, "your reply to a mail of board %ld does not say which "
		    "mail it answers (no In-Reply-To or References of a board mail of ours, no turn such as #6 in its "
		    "text), so nothing was played: reply to the newest board mail of board %ld, or tap a point of "
		    "its board", j->token.board, j->token.board);
		return true;
	}
	if (j->cmd_status == COMMAND_PLACEMENTS_ONLY || placements_with_stop(j) ||
	    (j->cmd.source == COMMAND_FROM_BODY && loose_placement(j->cmd.line, loose) && placement_alone(j, loose))) {
		become(j, "move");
		return true;
	}
	n = j->cmd.source == COMMAND_FROM_BODY ? words_of(j->cmd.line, w) : 0;
	if (n == 1 && strcmp(w[0], "swap") == 0) {
		become(j, "swap");
	} else if (n == 2 && strcmp(w[0], "resign") == 0 && strcmp(w[1], "yes") == 0) {
		become(j, "resign");
	} else if (n >= 1 && strcmp(w[0], "resign") == 0 && !j->token.chat) {
		snprintf(j->token_error, sizeof j->token_error, "to resign board %ld by reply, write \"resign yes\": "
		    "resign alone might be a slip of the finger, and it ends the game", j->token.board);
	} else if (n == 1 && (strcmp(w[0], "undo") == 0 || strcmp(w[0], "propose") == 0 ||
	    strcmp(w[0], "accept") == 0 || strcmp(w[0], "reject") == 0)) {
		become(j, "move");
		j->cmd.offer = strcmp(w[0], "undo") == 0 ? COMMAND_OFFER_UNDO : strcmp(w[0], "propose") == 0 ?
		    COMMAND_OFFER_PROPOSE : strcmp(w[0], "accept") == 0 ? COMMAND_OFFER_ACCEPT : COMMAND_OFFER_REJECT;
	} else if (n >= 1 && strcmp(w[0], "queue") == 0) {
		const char *rest = j->cmd.line + strspn(j->cmd.line, " \t");

		rest += strcspn(rest, " \t");
		rest += strspn(rest, " \t");
		snprintf(j->cmd.text, sizeof j->cmd.text, "%s", rest);
		become(j, "queue");
	} else if (j->token.chat) {
		/* the whole text is the answer to the chat (its quoted mail cut: command_comment) */
		become(j, "chat");
		j->cmd.source = COMMAND_FROM_SUBJECT;
	} else if (n >= 1 && placement_in_prose(j->cmd.line, loose)) {
		/* never played blind: the player confirms with the one placement alone */
		snprintf(j->suggest, sizeof j->suggest, "%s", loose);
		snprintf(j->token_error, sizeof j->token_error, "Did you mean %s? Your reply to the mail of board %ld "
		    "is words around one placement, so nothing was played: to play %s, reply with %s alone, or tap "
		    "the link below", loose, j->token.board, loose, loose);
	} else if (n >= 1 && !robot_board(j)) {
		/* words alone, to a person: a chat to the opponent (chat.c tells the sender it went as one) */
		become(j, "chat");
		j->cmd.source = COMMAND_FROM_SUBJECT;
	} else {
		snprintf(j->token_error, sizeof j->token_error, "your reply to the mail of board %ld holds no "
		    "command: reply with your placements alone (D4, or D3,F6 for a turn with captures), swap, "
		    "resign yes, undo, propose, accept or reject; to chat, reply to a chat mail or send chat %ld "
		    "<userid> <password> with your text", j->token.board, j->token.board);
	}
	return true;
}

char *tokenreply_masked(const struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_printf(&sb, "reply to board %ld", j->token.board);
	if (j->token.turn > 0)
		strbuf_printf(&sb, "#%d", j->token.turn);
	strbuf_printf(&sb, " %s: ", TOKEN_MASK);
	if (j->token_error[0] != '\0' || j->mc == NULL)
		strbuf_puts(&sb, "(no command)");
	else if (command_is(&j->cmd, "move") && j->cmd.offer == COMMAND_OFFER_NONE)
		for (i = 0; i < j->cmd.nplacements; i++)
			strbuf_printf(&sb, "%s%s", i > 0 ? "," : "", j->cmd.placements[i].name);
	else if (command_is(&j->cmd, "move"))
		strbuf_puts(&sb, j->cmd.offer == COMMAND_OFFER_UNDO ? "undo" : j->cmd.offer == COMMAND_OFFER_PROPOSE ?
		    "propose" : j->cmd.offer == COMMAND_OFFER_ACCEPT ? "accept" : "reject");
	else
		strbuf_puts(&sb, command_name(&j->cmd));
	return strbuf_finish(&sb);
}

enum process_status tokenreply_login(struct job *j, bool *ready)
{
	const struct game *g = &j->game;
	const char *players[2] = { g->black, g->white };
	struct store_user u[2], *mine[2];
	char token[TOKEN_TEXT_SIZE], err[TOKENS_ERR_MAX], why[JOB_MESSAGE_MAX];
	enum process_status ps;
	enum store_status ss;
	bool found, off;
	unsigned long gen;
	size_t n = 0, i;

	*ready = false;
	/* the robot on another host (robotremote.h) */
	if (robotreply_sender(j))
		return robotreply_login(j, ready);
	/* only a player's own registered address may use a player's token */
	for (i = 0; i < 2; i++) {
		if (players[i] == NULL || players[i][0] == '\0' || (i == 1 && strcmp(players[0], players[1]) == 0))
			continue;
		ss = store_user_find(j->srv.st, players[i], &u[n]);
		if (ss == STORE_NOT_FOUND)
			continue;
		if (ss != STORE_OK)
			return job_store_failure(j, ss, "cannot read the users file");
		if (strcasecmp(u[n].address, j->in.from_addr) == 0)
			mine[n] = &u[n], n++;
	}
	if (n == 0)
		return job_refuse(j, g, "the reply token of board %ld works only from its player's address, and %s "
		    "is neither player's, so nothing was done (a forwarded board mail lets nobody else play). If "
		    "the game is yours, send the turn with your password: move %ld <userid> <password> "
		    "<placements>; or move your account here: address <userid> <password> <new address>",
		    g->board, j->in.from_addr, g->board);
	for (i = 0; i < n; i++) {
		char id[IDENT_USERID_MAX + 1];

		/* job_find_account() fills the account it is given: the name first copied out of it */
		snprintf(id, sizeof id, "%s", mine[i]->userid);
		ps = job_find_account(j, id, mine[i], &found);
		if (ps != PROCESS_OK || !found)
			return ps;
		ss = tokens_state(j->srv.st, mine[i]->userid, &off, &gen, err);
		if (ss != STORE_OK) {
			job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s", err);
			return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		}
		if (off)
			return job_refuse(j, g, "the reply tokens of %s are off, so a reply without the password "
			    "does nothing: send the command with your password, or turn tokens on again with "
			    "tokens %s <password> new", mine[i]->userid, mine[i]->userid);
		ss = replytoken_of(j->srv.st, g->board, mine[i], token, err);
		if (ss != STORE_OK) {
			job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s", err);
			return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		}
		if (token_equal(token, j->token.token)) {
			memcpy(j->token_now, token, sizeof j->token_now);
			explicit_bzero(token, sizeof token);
			/* the throttle's lockout holds for tokens too; a token never renews a hash */
			if (!job_secret_verdict(j, mine[i], true, "reply token", why)) {
				j->rehash.userid[0] = '\0';
				return job_refuse(j, g, "%s", why);
			}
			j->rehash.userid[0] = '\0';
			j->user = *mine[i];
			snprintf(j->cmd.userid, sizeof j->cmd.userid, "%s", mine[i]->userid);
			*ready = true;
			return PROCESS_OK;
		}
	}
	explicit_bzero(token, sizeof token);
	/* a wrong token is a wrong password (throttle.h): guessing one is as slow */
	(void)job_secret_verdict(j, mine[0], false, "reply token", why);
	return job_refuse(j, g, "%s: the token in the Subject is not %s's token for board %ld now (it is another "
	    "board's or another player's, or it ended with a new password, a reset or tokens ... new), so nothing "
	    "was done: reply to your newest mail of board %ld, or send the command with your password", why,
	    mine[0]->userid, g->board, g->board);
}
