/* tournfile: the tournament file's text (tournfile.h). */
#include "store/tournfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "game/gamefile.h"
#include "store/store.h"

#define HEAD "# oustpbm tournament file (format: doc/game-file.md, Tournament files)\n"

bool tournfile_id_parse(const char *s, unsigned *id)
{
	unsigned long v;
	char *end;

	if ((s[0] != 'T' && s[0] != 't') || s[1] < '1' || s[1] > '9')
		return false;
	errno = 0;
	v = strtoul(s + 1, &end, 10);
	if (*end != '\0' || errno != 0 || v > 999999)
		return false;
	*id = (unsigned)v;
	return true;
}

/* A decimal from lo to hi, the whole of s. */
static bool num(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (*s == '\0' || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0' || errno != 0 || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static bool yesno(const char *s, bool *out)
{
	if (strcmp(s, "yes") == 0)
		*out = true;
	else if (strcmp(s, "no") == 0)
		*out = false;
	else
		return false;
	return true;
}

/* Text of a name or options: printable UTF-8, no control characters. */
static bool text_ok(const char *s)
{
	size_t bad;

	return utf8_text_ok(s, strlen(s), &bad);
}

struct parse {
	const char *file;
	int line;
	char *err;
	unsigned seen;		/* header keys met, a bit each */
};

static bool fail(struct parse *p, const char *fmt, const char *what)
{
	char msg[TOURNFILE_ERR_MAX], w[64];

	/* what is a line's part: at most 60 bytes of it in the message */
	snprintf(w, sizeof w, "%.60s", what);
	snprintf(msg, sizeof msg, fmt, w);
	snprintf(p->err, TOURNFILE_ERR_MAX, "%.40s:%d: %.240s", p->file, p->line, msg);
	return false;
}

static const char *const keys[] = {
	"tournament", "name", "format", "director", "status", "options", "players", "double", "repeat", "rounds",
	"reach", "idle", "round", "created", "mailed", "final-mailed", "edition", "previous", "next"
};

static bool header(struct parse *p, struct tourn *t, const char *key, const char *val)
{
	size_t k, nk = sizeof keys / sizeof keys[0];
	long v, w;
	const char *dash;
	char a[16];

	for (k = 0; k < nk; k++)
		if (strcmp(keys[k], key) == 0)
			break;
	if (k == nk)
		return fail(p, "unknown key '%s'", key);
	if (p->seen & (1u << k))
		return fail(p, "'%s' given twice", key);
	p->seen |= 1u << k;
	switch (k) {
	case 0:
		if (!tournfile_id_parse(val, &t->id))
			return fail(p, "want 'tournament: T<number>', not '%s'", val);
		return true;
	case 1:
		if (*val == '\0' || strlen(val) > TOURN_NAME_MAX || !text_ok(val))
			return fail(p, "want a name of 1 to 80 printable characters, not '%s'", val);
		memcpy(t->name, val, strlen(val) + 1);
		return true;
	case 2:
		if (!tourn_format_parse(val, &t->format))
			return fail(p, "want roundrobin, swiss, knockout or ladder, not '%s'", val);
		return true;
	case 3:
		if (!ident_userid_ok(val))
			return fail(p, "want the director's user id, not '%s'", val);
		memcpy(t->director, val, strlen(val) + 1);
		return true;
	case 4:
		if (!tourn_state_parse(val, &t->state))
			return fail(p, "want open, running or finished, not '%s'", val);
		return true;
	case 5:
		if (strlen(val) > TOURN_OPTIONS_MAX || !text_ok(val))
			return fail(p, "want the board options (200 characters at most), not '%s'", val);
		memcpy(t->options, val, strlen(val) + 1);
		return true;
	case 6:
		dash = strchr(val, '-');
		if (dash == NULL || (size_t)(dash - val) >= sizeof a)
			return fail(p, "want 'players: MIN-MAX', not '%s'", val);
		memcpy(a, val, (size_t)(dash - val));
		a[dash - val] = '\0';
		if (!num(a, 2, TOURN_PLAYERS_MAX, &v) || !num(dash + 1, 2, TOURN_PLAYERS_MAX, &w) || v > w)
			return fail(p, "want 'players: MIN-MAX' (2 <= MIN <= MAX <= 200), not '%s'", val);
		t->min_players = (int)v;
		t->max_players = (int)w;
		return true;
	case 7:
		return yesno(val, &t->twice) || fail(p, "want 'double: yes' or 'no', not '%s'", val);
	case 8:
		return yesno(val, &t->repeat) || fail(p, "want 'repeat: yes' or 'no', not '%s'", val);
	case 9:
		if (!num(val, 0, 1000, &v))
			return fail(p, "want 'rounds: N' (0 to 1000), not '%s'", val);
		t->rounds = (int)v;
		return true;
	case 10:
		if (!num(val, 1, TOURN_PLAYERS_MAX, &v))
			return fail(p, "want 'reach: N' (1 to 200), not '%s'", val);
		t->reach = (int)v;
		return true;
	case 11:
		if (!num(val, 0, 3650, &v))
			return fail(p, "want 'idle: DAYS' (0 to 3650), not '%s'", val);
		t->idle_days = (int)v;
		return true;
	case 12:
		if (!num(val, 0, 1000, &v))
			return fail(p, "want 'round: N', not '%s'", val);
		t->round = (int)v;
		return true;
	case 14:
		if (!num(val, 0, 1000, &v))
			return fail(p, "want 'mailed: N', not '%s'", val);
		t->mailed = (int)v;
		return true;
	case 15:
		return yesno(val, &t->final_mailed) || fail(p, "want 'final-mailed: yes' or 'no', not '%s'", val);
	case 16:
		if (!num(val, 1, 999999, &v))
			return fail(p, "want 'edition: N' (1 and up), not '%s'", val);
		t->edition = (int)v;
		return true;
	case 17:
		return tournfile_id_parse(val, &t->previous) || fail(p, "want 'previous: T<number>', not '%s'", val);
	case 18:
		return tournfile_id_parse(val, &t->next) || fail(p, "want 'next: T<number>', not '%s'", val);
	default:
		if (!gamefile_time_parse(val, strlen(val), &t->created))
			return fail(p, "want a time as 2026-11-21T18:41:07Z, not '%s'", val);
		return true;
	}
}

static bool player(struct parse *p, struct tourn *t, char *val)
{
	char *save = NULL, *id = strtok_r(val, " ", &save), *rt = strtok_r(NULL, " ", &save), *f, *eq;
	struct tourn_player *pl;
	long v;
	int i;

	if (id == NULL || rt == NULL || !ident_userid_ok(id) || !num(rt, 0, 9999, &v))
		return fail(p, "want 'player: USERID RATING [key=value...]', not '%s'", val);
	if (tourn_find(t, id) >= 0)
		return fail(p, "player %s is listed twice", id);
	i = tourn_add_player(t, id, (int)v, 0);
	if (i < 0)
		return fail(p, "%s", "too many players (200 at most), or out of memory");
	pl = &t->players[i];
	pl->place = 0;
	while ((f = strtok_r(NULL, " ", &save)) != NULL) {
		eq = strchr(f, '=');
		if (strcmp(f, "left") == 0) {
			pl->left = true;
			continue;
		}
		if (strcmp(f, "annulled") == 0) {
			pl->annulled = true;
			continue;
		}
		if (eq == NULL)
			return fail(p, "unknown player item '%s'", f);
		*eq++ = '\0';
		if (strcmp(f, "last") == 0) {
			if (!gamefile_time_parse(eq, strlen(eq), &pl->last))
				return fail(p, "want last=TIME (2026-11-21T18:41:07Z), not '%s'", eq);
			continue;
		}
		if (!num(eq, 0, 1000, &v))
			return fail(p, "want a number after '%s='", f);
		if (strcmp(f, "robot") == 0 && v >= 1 && v <= 5)
			pl->robot = (int)v;
		else if (strcmp(f, "seed") == 0)
			pl->seed = (int)v;
		else if (strcmp(f, "division") == 0 && v >= 1)
			pl->division = (int)v;
		else if (strcmp(f, "place") == 0)
			pl->place = (int)v;
		else
			return fail(p, "unknown or out-of-range player item '%s'", f);
	}
	return true;
}

static bool who(struct parse *p, const struct tourn *t, const char *s, int *out)
{
	if (strcmp(s, "-") == 0) {
		*out = -1;
		return true;
	}
	*out = tourn_find(t, s);
	return *out >= 0 || fail(p, "'%s' is no player of this tournament (no player: line before)", s);
}

static bool game(struct parse *p, struct tourn *t, char *val)
{
	char *f[8], *save = NULL;
	struct tourn_game g;
	long r, d, s, b = 0;
	int n = 0;

	for (f[n] = strtok_r(val, " ", &save); f[n] != NULL && n < 7; f[++n] = strtok_r(NULL, " ", &save))
		;
	if (n != 7 || strtok_r(NULL, " ", &save) != NULL)
		return fail(p, "%s", "want 'game: ROUND DIVISION TABLE BLACK WHITE|- BOARD|- RESULT'");
	if (!num(f[0], 1, 100000, &r) || !num(f[1], 1, TOURN_PLAYERS_MAX, &d) || !num(f[2], 0, 100000, &s))
		return fail(p, "%s", "want numbers for ROUND (1 and up), DIVISION (1 and up) and TABLE");
	g.round = (int)r;
	g.division = (int)d;
	g.slot = (int)s;
	if (!who(p, t, f[3], &g.black) || !who(p, t, f[4], &g.white))
		return false;
	if (g.black < 0 || g.black == g.white)
		return fail(p, "%s", "a game wants two players, a bye its player as BLACK and '-' as WHITE");
	if (strcmp(f[5], "-") != 0 && (!ident_board_parse(f[5], strlen(f[5]), &b) || b <= 0))
		return fail(p, "want a board number or '-', not '%s'", f[5]);
	g.board = b;
	if (!tourn_result_parse(f[6], &g.result))
		return fail(p, "want the result *, 1-0, 0-1, 1/2, +-, -+, annulled or bye, not '%s'", f[6]);
	if ((g.white < 0) != (g.result == TOURN_BYE) || (g.white < 0 && b != 0))
		return fail(p, "%s", "a bye has '-' as WHITE and BOARD and the result 'bye', and only a bye");
	if (b != 0 && tourn_game_of_board(t, b) >= 0)
		return fail(p, "board %s is listed twice", f[5]);
	if (tourn_add_game(t, &g) < 0)
		return fail(p, "%s", "out of memory");
	return true;
}

bool tournfile_parse(const char *file, const char *text, size_t len, struct tourn **out, char *err)
{
	struct store_lines it = { text, len, 0, 0, file };
	struct parse p = { file, 0, err, 0 };
	char line[TOURNFILE_LINE_MAX], *colon, *val;
	struct tourn *t;
	int more = 0, section = 0;
	bool ok = true;

	*out = NULL;
	t = tourn_new(0, TOURN_ROUNDROBIN);
	if (t == NULL) {
		snprintf(err, TOURNFILE_ERR_MAX, "%.60s: out of memory", file);
		return false;
	}
	while (ok && (more = store_lines_next(&it, line, sizeof line, err, TOURNFILE_ERR_MAX)) > 0) {
		p.line = it.lineno;
		colon = strstr(line, ": ");
		if (colon == NULL) {
			ok = fail(&p, "want 'key: value', not '%s'", line);
			break;
		}
		*colon = '\0';
		val = colon + 2;
		if (strcmp(line, "player") == 0) {
			if (section > 1)
				ok = fail(&p, "%s", "the player: lines come before the game: lines");
			else
				ok = player(&p, t, val);
			section = 1;
		} else if (strcmp(line, "game") == 0) {
			ok = game(&p, t, val);
			section = 2;
		} else if (section > 0) {
			ok = fail(&p, "the header line '%s' comes before the players", line);
		} else {
			ok = header(&p, t, line, val);
		}
	}
	if (ok && more < 0)
		ok = false;
	if (ok && (p.seen & 0x1f) != 0x1f) {
		snprintf(err, TOURNFILE_ERR_MAX, "%.60s: wants the lines tournament:, name:, format:, director: and status:",
		    file);
		ok = false;
	}
	if (!ok) {
		tourn_free(t);
		return false;
	}
	*out = t;
	return true;
}

char *tournfile_format(const struct tourn *t, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	char tm[GAMEFILE_TIME_SIZE];
	size_t i;
	char *s;

	strbuf_puts(&b, HEAD);
	strbuf_printf(&b, "tournament: T%u\nname: %s\nformat: %s\ndirector: %s\nstatus: %s\n", t->id, t->name,
	    tourn_format_name(t->format), t->director, tourn_state_name(t->state));
	if (t->options[0] != '\0')
		strbuf_printf(&b, "options: %s\n", t->options);
	strbuf_printf(&b, "players: %d-%d\ndouble: %s\nrepeat: %s\nrounds: %d\nreach: %d\nidle: %d\nround: %d\n",
	    t->min_players, t->max_players, t->twice ? "yes" : "no", t->repeat ? "yes" : "no", t->rounds, t->reach,
	    t->idle_days, t->round);
	strbuf_printf(&b, "created: %s\nmailed: %d\nfinal-mailed: %s\n", gamefile_time_str(t->created, tm), t->mailed,
	    t->final_mailed ? "yes" : "no");
	/* the edition lines only for a tournament of editions: a first edition's file is as before -repeat */
	if (t->edition > 1)
		strbuf_printf(&b, "edition: %d\n", t->edition);
	if (t->previous != 0)
		strbuf_printf(&b, "previous: T%u\n", t->previous);
	if (t->next != 0)
		strbuf_printf(&b, "next: T%u\n", t->next);
	if (t->nplayers > 0)
		strbuf_puts(&b, "\n");
	for (i = 0; i < t->nplayers; i++) {
		const struct tourn_player *p = &t->players[i];

		strbuf_printf(&b, "player: %s %d", p->userid, p->rating);
		if (p->robot > 0)
			strbuf_printf(&b, " robot=%d", p->robot);
		if (p->seed > 0)
			strbuf_printf(&b, " seed=%d division=%d", p->seed, p->division);
		if (p->place > 0)
			strbuf_printf(&b, " place=%d", p->place);
		if (p->last > 0)
			strbuf_printf(&b, " last=%s", gamefile_time_str(p->last, tm));
		if (p->left)
			strbuf_puts(&b, " left");
		if (p->annulled)
			strbuf_puts(&b, " annulled");
		strbuf_puts(&b, "\n");
	}
	if (t->ngames > 0)
		strbuf_puts(&b, "\n");
	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];

		strbuf_printf(&b, "game: %d %d %d %s %s ", g->round, g->division, g->slot, t->players[g->black].userid,
		    g->white < 0 ? "-" : t->players[g->white].userid);
		if (g->board > 0)
			strbuf_printf(&b, "%ld", g->board);
		else
			strbuf_puts(&b, "-");
		strbuf_printf(&b, " %s\n", tourn_result_name(g->result));
	}
	*len = b.len;
	s = strbuf_finish(&b);
	return s;
}
