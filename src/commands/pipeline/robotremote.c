/* robotremote: the robot player on other hosts, by mail.  See robotremote.h. */
#include "commands/pipeline/robotremote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/ai.h"
#include "game/gamefile.h"
#include "mail/mailout.h"
#include "mail/robotmac.h"
#include "store/tokens.h"

/* The robot is to move on g (services/robot.h's robot_to_move, which the pipeline does not include). */
static bool robotremote_robot_moves(const struct game *g)
{
	return !game_over(g) && game_user_is_robot(game_player_to_move(g));
}

bool robotremote_on(const struct config *cfg)
{
	return cfg->robot_address[0] != '\0';
}

bool robotremote_local_turn(const struct config *cfg, const struct game *g)
{
	return robotremote_robot_moves(g) && !robotremote_on(cfg);
}

bool robotremote_wants(const struct config *cfg, const struct game *g, const struct reply_event *ev)
{
	const struct reply_event *last = ev;

	if (!robotremote_on(cfg) || !robotremote_robot_moves(g) || game_is_open(g))
		return false;
	while (last->then != NULL)
		last = last->then;
	/* a change of the position or of whose turn it is; an offer or a chat asks the robot nothing */
	switch (last->what) {
	case REPLY_CHALLENGE:
	case REPLY_MOVE:
	case REPLY_SWAP:
	case REPLY_ACCEPT:
	case REPLY_UNDO_ACCEPTED:
		return true;
	default:
		return false;
	}
}

enum store_status robotremote_token(struct store *st, const struct config *cfg, long board,
    char out[TOKEN_TEXT_SIZE], char *err)
{
	unsigned char secret[TOKENS_SECRET_BYTES];
	enum store_status ss;

	out[0] = '\0';
	ss = tokens_secret(st, cfg->lock_timeout_ms, secret, err);
	/* bound to robot_address in place of a password hash: a new address ends the old tokens */
	if (ss == STORE_OK)
		token_make(secret, sizeof secret, board, GAME_ROBOT_USERID, cfg->robot_address, 0, out);
	explicit_bzero(secret, sizeof secret);
	return ss;
}

static const char *domain_of(const char *addr)
{
	const char *at = strrchr(addr, '@');

	return at != NULL ? at + 1 : "localhost";
}

enum mail_status robotremote_mail(struct store *st, struct reply_ctx *rc, const struct game *g,
    struct reply_mail *out)
{
	const struct config *cfg = rc->cfg;
	struct mailout_spec spec;
	char token[TOKEN_TEXT_SIZE], err[TOKENS_ERR_MAX], subject[200], id[200], root[GAME_THREAD_MAX + 1];
	char body[600], file[40], dims[GAME_DIMENSIONS_SIZE], mac[ROBOTMAC_HEX + 1], why[ROBOTMAC_WHY_MAX];
	static char secret[ROBOTMAC_SECRET_MAX + 1];	/* wiped after use */
	char *text = NULL;
	size_t len, n;
	enum mail_status rs = MAIL_OK;

	memset(out, 0, sizeof *out);
	if (robotremote_token(st, cfg, g->board, token, err) != STORE_OK) {
		snprintf(rc->err, sizeof rc->err, "no reply token for the robot: %s", err);
		return MAIL_NOMEM;
	}
	if (gamefile_format(g, &text, &len) != GAME_OK) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		rs = MAIL_NOMEM;
		goto out;
	}
	snprintf(subject, sizeof subject, "Oust Board %ld %s #%d [%s]", g->board, GAME_ROBOT_USERID, g->rg.turn, token);
	/* the MAC the robot host checks (robotmac.h): the From alone proves nothing */
	if (!robotmac_secret(store_home(st), cfg->robot_secret_file, secret, why, sizeof why)) {
		snprintf(rc->err, sizeof rc->err, "no MAC for the robot's board mail: %s", why);
		rs = MAIL_COMPOSE;
		goto out;
	}
	if (!robotmac_make(secret, subject, text, len, mac)) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		rs = MAIL_NOMEM;
		goto out;
	}
	snprintf(id, sizeof id, "%ld.%d.%s.%lld@%s", g->board, g->rg.turn, GAME_ROBOT_USERID, (long long)rc->now,
	    domain_of(cfg->from_address));
	snprintf(file, sizeof file, ROBOTREMOTE_FILE, g->board);
	snprintf(body, sizeof body, "Board %ld (%s), turn %d: %s to move, at level %d, as %s.\n\n"
	    "The game record is attached (%s). Reply to this mail with the\n"
	    "robot's turn alone as the text: placements (D4, or D3, F6), swap,\n"
	    "or resign yes.\n\n"
	    "This mail is for the robot host (oustpbm robot-mail).\n",
	    g->board, game_dimensions(g, false, dims), g->rg.turn, GAME_ROBOT_USERID, (g->robot_level != 0 ? g->robot_level : AI_DEFAULT_LEVEL),
	    game_color_of(g, GAME_ROBOT_USERID) == RULES_BLACK ? "Black (x)" : "White (o)", file);
	root[0] = '\0';
	n = strlen(g->thread);
	if (n >= 2 && g->thread[0] == '<' && g->thread[n - 1] == '>')
		snprintf(root, sizeof root, "%.*s", (int)(n - 2), g->thread + 1);
	memset(&spec, 0, sizeof spec);
	spec.from_addr = cfg->from_address;
	spec.from_name = cfg->server_name;
	spec.to_addr = cfg->robot_address;
	spec.subject = subject;
	spec.body = body;
	spec.date = rc->now;
	spec.message_id = id;
	spec.root_id = root;
	spec.generated = true;
	spec.attachment = text;
	spec.attachment_len = len;
	spec.attachment_type = ROBOTREMOTE_TYPE "/" ROBOTREMOTE_SUBTYPE;
	spec.attachment_name = file;
	spec.id_key = rc->id_key_set ? rc->id_key : NULL;	/* its reports and loops known (idmac.h) */
	spec.robot_mac = mac;
	snprintf(out->rcpt, sizeof out->rcpt, "%s", cfg->robot_address);
	if (mailout_compose(&spec, &out->msg, &out->len) != MAIL_OK) {
		snprintf(rc->err, sizeof rc->err, "cannot compose the robot's board mail of board %ld", g->board);
		rs = MAIL_COMPOSE;
	}
out:
	explicit_bzero(secret, sizeof secret);
	explicit_bzero(token, sizeof token);
	explicit_bzero(subject, sizeof subject);
	free(text);
	return rs;
}
