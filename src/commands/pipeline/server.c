/* server: the context of one run of the server.  See server.h. */
#include "commands/pipeline/server.h"

#include <string.h>

#include "store/tokens.h"

void server_at(struct server *s, time_t now)
{
	s->now = now;
	gamefile_time_str((int64_t)now, s->stamp);
}

static void set_time(struct server *s)
{
	server_at(s, config_now(&s->cfg));
}

void server_init(struct server *s, const char *home)
{
	memset(s, 0, sizeof *s);
	s->home = home;
	config_defaults(&s->cfg);
	set_time(s);
}

enum process_status server_open(struct server *s, char *err, size_t errlen)
{
	char serr[STORE_ERR_MAX];
	enum store_status ss;

	if (config_load(&s->cfg, s->home, err, errlen) != CONFIG_OK) {
		config_defaults(&s->cfg);
		set_time(s);
		if (store_open(s->home, &s->cfg, &s->st, serr, sizeof serr) != STORE_OK)
			s->st = NULL;
		return PROCESS_CONFIG;
	}
	set_time(s);
	ss = store_open(s->home, &s->cfg, &s->st, err, errlen);
	if (ss == STORE_OK)
		return PROCESS_OK;
	s->st = NULL;
	if (ss == STORE_NOT_OWNER)
		return PROCESS_NOPERM;
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_NOHOME;
}

enum outbox_status server_outbox(struct server *s, char *err, size_t errlen)
{
	enum outbox_status os;

	if (s->ob != NULL)
		return OUTBOX_OK;
	os = outbox_open(s->st, &s->ob, err, errlen);
	if (os != OUTBOX_OK)
		s->ob = NULL;
	return os;
}

enum store_status server_id_key(struct server *s, unsigned char key[IDMAC_KEY_BYTES])
{
	unsigned char secret[TOKENS_SECRET_BYTES];
	char err[TOKENS_ERR_MAX] = "";
	enum store_status ss;

	ss = tokens_secret(s->st, s->cfg.lock_timeout_ms, secret, err);
	if (ss == STORE_OK)
		idmac_key(secret, sizeof secret, key);
	else
		store_log(s->st, "the key of the Message-IDs (token.secret) cannot be read: %s", err);
	explicit_bzero(secret, sizeof secret);
	return ss;
}

enum store_status server_reply_key(struct server *s, struct reply_ctx *rc)
{
	enum store_status ss = server_id_key(s, rc->id_key);

	rc->id_key_set = ss == STORE_OK;
	return ss;
}

void server_reply_init(struct server *s, const char *sender)
{
	reply_release(&s->rc);
	/* no incoming mail: the replies thread under their boards only */
	reply_init(&s->rc, &s->cfg, s->home, s->now, NULL, NULL, sender);
	(void)server_reply_key(s, &s->rc);
}

void server_close(struct server *s)
{
	reply_release(&s->rc);
	outbox_close(s->ob);
	s->ob = NULL;
	store_close(s->st);
	s->st = NULL;
}
