/* fsck: the consistency check of the game files.  See fsck.h. */
#include "commands/services/fsck.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>

#include "base/ident.h"
#include "commands/services/robot.h"
#include "commands/services/tournament.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/bounces.h"
#include "store/pending.h"
#include "store/filecaps.h"
#include "store/ratings.h"
#include "store/settings.h"

#define COUNTER_FILE "games/next-board"
#define QUOTE_MAX 60

/* One problem: "file:line: message" (no line when line is 0). */
static void report(FILE *out, unsigned *problems, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void report(FILE *out, unsigned *problems, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (line > 0)
		fprintf(out, "%s:%d: ", file, line);
	else
		fprintf(out, "%s: ", file);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	(*problems)++;
}

/* ---- finding lines in the text, for the messages ---- */

/* The lines of a game file, as gamefile.c reads them (LF ends; CR and blanks trimmed). */
struct lines {
	const char *p, *end;
	int line;
	const char *s;
	size_t n;
};

static bool next(struct lines *l)
{
	const char *nl;

	if (l->p >= l->end)
		return false;
	l->line++;
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	l->s = l->p;
	l->n = (size_t)((nl != NULL ? nl : l->end) - l->p);
	l->p = nl != NULL ? nl + 1 : l->end;
	while (l->n > 0 && (l->s[l->n - 1] == ' ' || l->s[l->n - 1] == '\t' || l->s[l->n - 1] == '\r'))
		l->n--;
	return true;
}

/* The line of header key ("to-move"), or 0. */
static int header_line(const char *text, size_t len, const char *key)
{
	struct lines l = { text, text + len, 0, NULL, 0 };
	size_t k = strlen(key);
	bool started = false;

	while (next(&l)) {
		if (l.n == 0) {
			if (started)
				return 0;
			continue;
		}
		started = true;
		if (l.n > k && memcmp(l.s, key, k) == 0 && l.s[k] == ':')
			return l.line;
	}
	return 0;
}

/* The first token of the current line is the word w. */
static bool first_word_is(const struct lines *l, const char *w)
{
	size_t i = 0, j;

	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	j = i;
	while (j < l->n && l->s[j] != ' ' && l->s[j] != '\t')
		j++;
	return j - i == strlen(w) && memcmp(l->s + i, w, j - i) == 0;
}

/* The first token of the current line is the number v. */
static bool first_is(const struct lines *l, long v)
{
	char buf[24];

	snprintf(buf, sizeof buf, "%ld", v);
	return first_word_is(l, buf);
}

/* The line of the drawing's row labelled row ("13" square, "g" hex), or 0. */
static int row_line(const char *text, size_t len, const char *row)
{
	struct lines l = { text, text + len, 0, NULL, 0 };
	bool header = true, drawing = false;

	while (next(&l)) {
		if (header) {
			header = l.n != 0 || l.line == 1;
			continue;
		}
		if (!drawing) {
			drawing = l.n >= 2 && memcmp(l.s, "x:", 2) == 0;
			continue;
		}
		if (l.n == 8 && memcmp(l.s, "history:", 8) == 0)
			return 0;
		if (first_word_is(&l, row))
			return l.line;
	}
	return 0;
}

/* The line of history entry number k, or 0. */
static int history_line(const char *text, size_t len, int k)
{
	struct lines l = { text, text + len, 0, NULL, 0 };
	bool history = false;

	while (next(&l)) {
		if (!history)
			history = l.n == 8 && memcmp(l.s, "history:", 8) == 0;
		else if (first_is(&l, k))
			return l.line;
	}
	return 0;
}

/* ---- one game file ---- */

/* Where the replayed game r differs from g first: the line to blame. */
static int differs_line(const struct game *g, const struct game_replay *r, const char *text, size_t len)
{
	const struct rules_board *have = &g->rg.board, *want = &r->rg.board;
	int x, y, p;
	char row[16];

	for (y = have->width - 1; y >= 0; y--) {
		for (x = rules_row_first(have, y); x < rules_row_first(have, y) + rules_row_len(have, y); x++) {
			p = rules_point(have, x, y);
			if (have->color[p] != want->color[p]) {
				if (have->shape == RULES_HEX)
					snprintf(row, sizeof row, "%c", rules_row_letter(y));
				else
					snprintf(row, sizeof row, "%d", y + 1);
				return row_line(text, len, row);
			}
		}
	}
	if (g->rg.result != r->rg.result)
		return header_line(text, len, "status");
	if (g->rg.result == RULES_PLAYING && g->rg.to_move != r->rg.to_move)
		return header_line(text, len, "to-move");
	if (g->rg.turn != r->rg.turn)
		return header_line(text, len, "turn");
	return header_line(text, len, "end");
}

/* A game file being checked: its name and its text (len bytes). */
struct source {
	const char *file;
	const char *text;
	size_t len;
};

static enum process_status check_player(struct store *st, const struct source *src, const char *key, const char *userid,
    FILE *out, unsigned *problems)
{
	const char *file = src->file, *text = src->text;
	size_t len = src->len;
	struct store_user u;
	enum store_status ss;

	struct store_reserved r;

	if (game_user_is_robot(userid) || strcmp(userid, GAME_OPEN_SEAT) == 0)
		return PROCESS_OK;	/* built in, without an account (robot.h); an open challenge's open seat */
	ss = store_user_find(st, userid, &u);
	if (ss == STORE_OK)
		return PROCESS_OK;
	/* signed off or deleted: its games keep its id (store.h, reserved) */
	if (ss == STORE_NOT_FOUND && store_reserved_find(st, userid, &r) == STORE_OK)
		return PROCESS_OK;
	if (ss == STORE_NOT_FOUND) {
		report(out, problems, file, header_line(text, len, key), "%s %s has no account in the users file",
		    key, userid);
		return PROCESS_OK;
	}
	report(out, problems, "users", 0, "%s", store_error(st));
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
}

enum process_status fsck_game(struct store *st, long board, const char *file, const char *text, size_t len,
    FILE *out, unsigned *problems)
{
	struct gamefile_error gerr;
	struct game_replay *r = NULL;
	enum game_status gs;
	enum game_status vs;
	enum process_status fs = PROCESS_OK;
	const char *msg;
	struct game g;

	gs = gamefile_parse(text, len, &g, &gerr);
	if (gs == GAME_NO_MEMORY) {
		report(out, problems, file, 0, "out of memory reading it");
		return PROCESS_TEMPFAIL;
	}
	if (gs != GAME_OK) {
		/* "line 7: unknown status 'plying'" -> "file:7: unknown status 'plying'" */
		msg = gerr.msg;
		if (gerr.line > 0 && strncmp(msg, "line ", 5) == 0 && strstr(msg, ": ") != NULL)
			msg = strstr(msg, ": ") + 2;
		report(out, problems, file, gerr.line, "%s", msg);
		return PROCESS_OK;
	}
	if (g.board != board)
		report(out, problems, file, header_line(text, len, "board"),
		    "board %ld in a file named for board %ld", g.board, board);
	r = malloc(sizeof *r);	/* a replay holds a whole board: not on the stack */
	if (r == NULL) {
		report(out, problems, file, 0, "out of memory replaying it");
		fs = PROCESS_TEMPFAIL;
		goto out;
	}
	vs = game_verify(&g, r);
	if (vs == GAME_BAD_HISTORY)
		report(out, problems, file, history_line(text, len, r->bad_turn), "%s", r->why);
	else if (vs == GAME_POSITION_DIFFERS)
		report(out, problems, file, differs_line(&g, r, text, len), "%s", r->why);
	else if (vs != GAME_OK)
		report(out, problems, file, 0, "the history cannot be replayed: %s", game_status_str(vs));
	if (st != NULL) {
		fs = check_player(st, &(struct source){ file, text, len }, "black", g.black, out, problems);
		if (fs == PROCESS_OK && strcmp(g.black, g.white) != 0)
			fs = check_player(st, &(struct source){ file, text, len }, "white", g.white, out, problems);
	}
out:
	free(r);
	game_release(&g);
	return fs;
}

/* ---- the store ---- */

static enum process_status check_board(struct store *st, long board, FILE *out, unsigned *problems)
{
	enum store_status ss;
	enum process_status fs;
	char file[40], *text = NULL;
	size_t len;

	snprintf(file, sizeof file, "games/%ld.game", board);
	ss = store_board_read(st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		report(out, problems, file, 0, "no such board");
		return PROCESS_OK;
	}
	if (ss == STORE_TOO_BIG) {
		report(out, problems, file, 0, "larger than %ld bytes", STORE_BOARD_FILE_MAX);
		return PROCESS_OK;
	}
	if (ss == STORE_NOT_REGULAR) {
		report(out, problems, file, 0, "%s", store_error(st));
		return PROCESS_OK;
	}
	if (ss != STORE_OK) {
		report(out, problems, file, 0, "%s", store_error(st));
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
	}
	fs = fsck_game(st, board, file, text, len, out, problems);
	free(text);
	return fs;
}

/* A quoted file name for a message: printable ASCII, cut short. */
static const char *quote(const char *s, char buf[QUOTE_MAX])
{
	size_t i;

	for (i = 0; s[i] != '\0' && i < QUOTE_MAX - 4; i++)
		buf[i] = s[i] > ' ' && s[i] < 0x7f ? s[i] : '?';
	if (s[i] != '\0')
		memcpy(buf + i, "...", 3), i += 3;
	buf[i] = '\0';
	return buf;
}

/* games/: every name is <board>.game, <board>.lock or next-board. */
static enum process_status check_names(struct store *st, FILE *out, unsigned *problems)
{
	enum store_status ss;
	char **names = NULL, q[QUOTE_MAX], file[QUOTE_MAX + 8];
	size_t n = 0, i, len;
	long id;

	ss = store_list_dir(st, "games", &names, &n);
	if (ss != STORE_OK) {
		report(out, problems, "games", 0, "%s", store_error(st));
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
	}
	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (len > 5 && strcmp(names[i] + len - 5, ".game") == 0 &&
		    !ident_board_parse(names[i], len - 5, &id)) {
			snprintf(file, sizeof file, "games/%s", quote(names[i], q));
			report(out, problems, file, 0, "not a board file name (<board>.game, board %d to %d): "
			    "the server never reads it", IDENT_BOARD_MIN, IDENT_BOARD_MAX);
		}
	}
	store_free_names(names, n);
	return PROCESS_OK;
}

/* The temporary files of interrupted writes in reldir whose process is gone. */
static enum process_status check_tmp(struct store *st, const char *reldir, FILE *out, unsigned *problems)
{
	char path[4096], file[4200], q[QUOTE_MAX];
	struct dirent *de;
	DIR *d;
	size_t len;
	const char *dot;
	long pid;
	char *end;

	snprintf(path, sizeof path, "%s/%s", store_home(st), reldir);
	d = opendir(path);
	if (d == NULL) {
		if (errno == ENOENT)
			return PROCESS_OK;
		report(out, problems, reldir, 0, "cannot list it: %s", strerror(errno));
		return PROCESS_IOERR;
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] != '.' || len < 5 || strcmp(de->d_name + len - 4, ".tmp") != 0)
			continue;
		/* ".<name>.<pid>.<n>.tmp": the pid is the second number from the end */
		pid = 0;
		dot = de->d_name + len - 4;
		while (dot > de->d_name && dot[-1] != '.')
			dot--;	/* start of <n> */
		if (dot - de->d_name >= 2) {
			const char *p = dot - 1;

			while (p > de->d_name && p[-1] != '.')
				p--;	/* start of <pid> */
			pid = strtol(p, &end, 10);
			if (end != dot - 1)
				pid = 0;
		}
		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;	/* its writer still runs */
		snprintf(file, sizeof file, "%s%s%s", strcmp(reldir, ".") == 0 ? "" : reldir,
		    strcmp(reldir, ".") == 0 ? "" : "/", quote(de->d_name, q));
		report(out, problems, file, 0, "temporary file of an interrupted write, its process gone: "
		    "remove it");
	}
	closedir(d);
	return PROCESS_OK;
}

/* What a file of mode m is, for a report. */
static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISLNK(m) ? "a symbolic link" :
	    S_ISSOCK(m) ? "a socket" : "a device";
}

/* The vacations file (vacations.h) parses: a damaged one stops cleanup's reminders and losses on time. */
static enum process_status check_vacations(struct store *st, FILE *out, unsigned *problems)
{
	struct vacation *list = NULL;
	enum store_status ss;
	size_t n = 0;

	ss = vacations_read(st, &list, &n);
	if (ss == STORE_OK) {
		size_t i;

		/* the mail command books at most VACATIONS_BOOKED_MAX ahead: more is a hand's edit */
		for (i = 0; i < n; i++)
			if (vacation_booked(&list[i], (int64_t)store_now(st)) > VACATIONS_BOOKED_MAX)
				report(out, problems, VACATIONS_FILE, 0, "%s has %zu absences booked ahead, more than %d",
				    list[i].userid, vacation_booked(&list[i], (int64_t)store_now(st)),
				    VACATIONS_BOOKED_MAX);
		free(list);
		return PROCESS_OK;
	}
	free(list);
	report(out, problems, VACATIONS_FILE, 0, "%s (cleanup sends no reminder and ends no game on time until it "
	    "is mended)", store_error(st));
	return ss == STORE_CORRUPT ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
}

/* The players' settings (settings.h) parse: a damaged file fails set, settings, whoami and the clocks' mails. */
static enum process_status check_settings(struct store *st, FILE *out, unsigned *problems)
{
	char err[SETTINGS_ERR_MAX];
	struct settings *list = NULL;
	enum store_status ss;
	size_t n = 0;

	ss = settings_load(st, &list, &n, err);
	free(list);
	if (ss == STORE_OK)
		return PROCESS_OK;
	report(out, problems, SETTINGS_FILE, 0, "%s (set, settings, whoami and the mails of boards with clocks fail "
	    "until it is mended)", err);
	return ss == STORE_CORRUPT ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
}

/*
 * The addresses that bounced (bounces.h): a file that does not parse is a
 * problem; each address stopped at bounce_limit is a note (not counted),
 * so the admin sees which players get no mail.
 */
static enum process_status check_bounces(struct store *st, FILE *out, unsigned *problems)
{
	char err[CONFIG_ERR_MAX], t[GAMEFILE_TIME_SIZE];
	struct bounce *list = NULL;
	struct config cfg;
	enum store_status ss;
	size_t n = 0, i;

	if (config_load(&cfg, store_home(st), err, sizeof err) != CONFIG_OK)
		config_defaults(&cfg);
	ss = bounces_read(st, &list, &n);
	if (ss != STORE_OK) {
		report(out, problems, BOUNCES_FILE, 0, "%s (no bounce is counted and no address stopped until it is "
		    "mended)", store_error(st));
		return ss == STORE_CORRUPT ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
	}
	for (i = 0; i < n; i++) {
		char ids[4][IDENT_USERID_MAX + 1];
		size_t nids = 0;

		if (!bounces_stopped(&list[i], cfg.bounce_limit))
			continue;
		if (store_user_ids_of(st, list[i].address, ids, 4, &nids) != STORE_OK)
			nids = 0;
		fprintf(out, "%s: note: %s%s%s gets no mail: %lu bounces, the last %s (%s); a mail from it clears that\n",
		    BOUNCES_FILE, list[i].address, nids > 0 ? " of account " : "", nids > 0 ? ids[0] : "",
		    list[i].count, gamefile_time_str(list[i].last, t), list[i].status);
	}
	free(list);
	return PROCESS_OK;
}

/*
 * The data files of reldir that are not regular files: a FIFO, directory or
 * symbolic link named like a game file (in games/) or like users, seen or
 * the log (in the home).  The server refuses each (store.h); the admin is
 * told here which it is.
 */
static enum process_status check_kinds(struct store *st, const char *reldir, FILE *out, unsigned *problems)
{
	static const char *const home_files[] = { "users", "seen", "log", "registrations", "oustpbm.conf", "reserved",
	    ACCOUNTS_FILE, "ratings", RATINGS_STATE_FILE, "seeking", "limits", VACATIONS_FILE, PENDING_FILE, NULL };
	char path[4096], file[4200], q[QUOTE_MAX];
	struct dirent *de;
	struct stat sb;
	bool home = strcmp(reldir, ".") == 0, named;
	size_t len, i;
	DIR *d;

	snprintf(path, sizeof path, "%s/%s", store_home(st), reldir);
	d = opendir(path);
	if (d == NULL) {
		if (errno == ENOENT)
			return PROCESS_OK;
		report(out, problems, reldir, 0, "cannot list it: %s", strerror(errno));
		return PROCESS_IOERR;
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		named = false;
		if (home) {
			for (i = 0; home_files[i] != NULL; i++)
				named = named || strcmp(de->d_name, home_files[i]) == 0;
		} else {
			named = (len > 5 && strcmp(de->d_name + len - 5, ".game") == 0) ||
			    (len > 5 && strcmp(de->d_name + len - 5, ".lock") == 0) ||
			    strcmp(de->d_name, "next-board") == 0;
		}
		if (!named || fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(sb.st_mode))
			continue;
		snprintf(file, sizeof file, "%s%s%s", home ? "" : reldir, home ? "" : "/", quote(de->d_name, q));
		report(out, problems, file, 0, "%s, not a regular file: the server refuses to use it; remove it "
		    "and put the real file there", kind_of(sb.st_mode));
	}
	closedir(d);
	return PROCESS_OK;
}

/* games/next-board must be ahead of every board (the store lock held). */
static enum process_status check_counter(struct store *st, const long *boards, size_t n, FILE *out,
    unsigned *problems)
{
	enum store_status ss;
	char *text = NULL, *end;
	size_t len;
	long next;

	ss = store_read_file(st, COUNTER_FILE, 64, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		if (n > 0)
			report(out, problems, COUNTER_FILE, 0, "missing, but board %ld exists", boards[n - 1]);
		return PROCESS_OK;
	}
	if (ss == STORE_TOO_BIG) {
		report(out, problems, COUNTER_FILE, 1, "not a board number");
		return PROCESS_OK;
	}
	if (ss != STORE_OK) {
		report(out, problems, COUNTER_FILE, 0, "%s", store_error(st));
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
	}
	if (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	errno = 0;
	next = strtol(text, &end, 10);
	if (len == 0 || text[0] < '1' || text[0] > '9' || *end != '\0' || errno != 0 ||
	    next < IDENT_BOARD_MIN || next > IDENT_BOARD_MAX + 1L) {
		char q[QUOTE_MAX];

		report(out, problems, COUNTER_FILE, 1, "'%s' is not a board number", quote(text, q));
	} else if (n > 0 && boards[n - 1] >= next) {
		report(out, problems, COUNTER_FILE, 1, "the counter %ld is not ahead of board %ld (games/%ld.game)",
		    next, boards[n - 1], boards[n - 1]);
	}
	free(text);
	return PROCESS_OK;
}

/* nftw() takes no context: the walk of check_owner() */
static struct {
	FILE *out;
	unsigned *problems;
	uid_t owner;
	size_t skip;	/* length of "<home>/" */
	unsigned shown;
} walk;

#define OWNER_SHOWN_MAX 50	/* lines about files of other owners; then one summary line */

static int owner_visit(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	char q[QUOTE_MAX], who[64];
	struct passwd *pw;

	(void)flag;
	(void)ftw;
	if (sb->st_uid == walk.owner || strlen(path) <= walk.skip)
		return 0;
	if (++walk.shown > OWNER_SHOWN_MAX)
		return 0;
	pw = getpwuid(sb->st_uid);
	if (pw != NULL)
		snprintf(who, sizeof who, "%s", pw->pw_name);
	else
		snprintf(who, sizeof who, "uid %lu", (unsigned long)sb->st_uid);
	report(walk.out, walk.problems, quote(path + walk.skip, q), 0, "owned by %s, not by the home's owner: "
	    "the server cannot change it (chown it back)", who);
	return 0;
}

/*
 * Every file and directory under the home belongs to the home's owner: one
 * written by root (an admin command run with sudo) stops the server.
 */
static enum process_status check_owner(struct store *st, FILE *out, unsigned *problems)
{
	walk.out = out;
	walk.problems = problems;
	walk.owner = store_home_owner(st);
	walk.skip = strlen(store_home(st)) + 1;
	walk.shown = 0;
	if (nftw(store_home(st), owner_visit, 16, FTW_PHYS) != 0) {
		report(out, problems, ".", 0, "cannot walk the home: %s", strerror(errno));
		return PROCESS_IOERR;
	}
	if (walk.shown > OWNER_SHOWN_MAX)
		report(out, problems, ".", 0, "%u more files owned by another user", walk.shown - OWNER_SHOWN_MAX);
	return PROCESS_OK;
}

static const struct store_user *sort_users;

/* By user id, then by line (the first of equal ids is the one found). */
static int by_userid(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_users[i].userid, sort_users[j].userid);

	return c != 0 ? c : i < j ? -1 : i > j;
}

/*
 * The users file: not near its read limit (past it every mail fails; the
 * server refuses registrations that would pass it), and no user id twice:
 * ids compare without case, so of "Alice" and "alice" only the first is
 * ever found.
 */
static enum process_status check_users(struct store *st, FILE *out, unsigned *problems)
{
	struct store_user *users = NULL;
	unsigned *lines = NULL;
	size_t n = 0, size = 0, i, *order = NULL;
	enum store_status ss;

	ss = store_user_all(st, &users, &lines, &n, &size);
	if (ss == STORE_NOT_FOUND)
		return PROCESS_OK;
	if (ss == STORE_TOO_BIG) {
		report(out, problems, "users", 0, "larger than %ld bytes: no mail can be handled until it is cut",
		    STORE_USERS_FILE_MAX);
		return PROCESS_OK;
	}
	if (ss == STORE_CORRUPT) {
		report(out, problems, "users", 0, "%s", store_error(st));
		return PROCESS_OK;
	}
	if (ss != STORE_OK) {
		report(out, problems, "users", 0, "%s", store_error(st));
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
	}
	if (size > (size_t)STORE_USERS_FILE_MAX / 10 * 9)
		report(out, problems, "users", 0, "%zu bytes, within 10%% of the %ld bytes the server reads: "
		    "new accounts are refused at the limit; remove unused ones", size, STORE_USERS_FILE_MAX);
	order = n > 0 ? malloc(n * sizeof *order) : NULL;
	if (n > 0 && order == NULL) {
		report(out, problems, "users", 0, "out of memory checking it");
		free(users);
		free(lines);
		return PROCESS_TEMPFAIL;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	sort_users = users;
	if (n > 1)
		qsort(order, n, sizeof *order, by_userid);
	for (i = 0; i < n; i++)
		if (game_user_is_robot(users[i].userid))
			report(out, problems, "users", (int)lines[i], "user id %s is the built-in robot player's "
			    "(robot.h): this account can never log in, and its games are played by the robot; "
			    "rename it", users[i].userid);
	for (i = 1; i < n; i++)
		if (strcmp(users[order[i]].userid, users[order[i - 1]].userid) == 0)
			report(out, problems, "users", (int)lines[order[i]], "user id %s is the one of line %u "
			    "(user ids compare without case): this account can never be reached",
			    users[order[i]].userid, lines[order[i - 1]]);
	free(order);
	free(users);
	free(lines);
	return PROCESS_OK;
}

/*
 * Whether a list file loaded (ss is what its reader said): a missing one
 * is empty; any other failure is reported against file, and *res says
 * whether the check goes on (a damaged file) or stops (a system error).
 */
static bool list_loaded(struct store *st, enum store_status ss, const char *file, FILE *out, unsigned *problems,
    enum process_status *res)
{
	*res = PROCESS_OK;
	if (ss == STORE_OK)
		return true;
	if (ss != STORE_NOT_FOUND) {
		report(out, problems, file, 0, "%s", store_error(st));
		*res = ss == STORE_CORRUPT ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
	}
	return false;
}

/*
 * The reserved user ids (store.h): every line parses, and no reserved id
 * still has an account (a signoff cut short between its two writes: the
 * player's next signoff, or the admin's deluser, completes it).
 */
static enum process_status check_reserved(struct store *st, FILE *out, unsigned *problems)
{
	struct store_reserved *list = NULL;
	struct store_user u;
	unsigned *lines = NULL;
	enum process_status res;
	size_t n = 0, i;

	if (!list_loaded(st, store_reserved_all(st, &list, &lines, &n), "reserved", out, problems, &res))
		return res;
	for (i = 0; i < n; i++) {
		if (list[i].until < list[i].since)
			report(out, problems, "reserved", (int)lines[i], "user id %s is reserved until before it went",
			    list[i].userid);
		if (store_user_find(st, list[i].userid, &u) == STORE_OK)
			report(out, problems, "reserved", (int)lines[i], "user id %s is reserved and still has an "
			    "account: its signoff was cut short; 'oustpbm deluser %s' completes it", list[i].userid,
			    list[i].userid);
	}
	free(list);
	free(lines);
	return PROCESS_OK;
}

/* The one-time codes (accounts.h): every line parses and belongs to an account. */
static enum process_status check_codes(struct store *st, FILE *out, unsigned *problems)
{
	struct accounts_code *list = NULL;
	struct store_user u;
	unsigned *lines = NULL;
	enum process_status res;
	size_t n = 0, i;

	if (!list_loaded(st, accounts_code_all(st, &list, &lines, &n), ACCOUNTS_FILE, out, problems, &res))
		return res;
	for (i = 0; i < n; i++)
		if (store_user_find(st, list[i].userid, &u) == STORE_NOT_FOUND)
			report(out, problems, ACCOUNTS_FILE, (int)lines[i], "a %s code of %s, who has no account",
			    accounts_kind_str(list[i].kind), list[i].userid);
	free(list);
	free(lines);
	return PROCESS_OK;
}

/*
 * The files mail makes grow (filecaps.h): a warning at STORE_CAP_WARN_PCT
 * of the cap (not counted as a problem: nothing is wrong yet), a problem
 * past it (its readers read it as empty, its writers refuse).
 */
static void check_caps(struct store *st, FILE *out, unsigned *problems)
{
	struct filecap caps[FILECAPS_N];
	size_t i;

	filecaps_usage(st, caps);
	for (i = 0; i < FILECAPS_N; i++) {
		long long pct = caps[i].size * 100 / caps[i].cap;

		if (caps[i].size > caps[i].cap)
			report(out, problems, caps[i].file, 0, "%lld bytes, over its cap of %ld (%s): new entries "
			    "are refused; prune it (oustpbm cleanup) or trim it", caps[i].size, caps[i].cap,
			    caps[i].what);
		else if (pct >= STORE_CAP_WARN_PCT)
			fprintf(out, "%s: warning: %lld bytes, %lld%% of its cap of %ld (%s): at the cap new "
			    "entries are refused\n", caps[i].file, caps[i].size, pct, caps[i].cap, caps[i].what);
		/* a folder: its files counted too */
		if (caps[i].count_cap > 0 && caps[i].count > caps[i].count_cap)
			report(out, problems, caps[i].file, 0, "%lld files, over its cap of %ld (%s): new ones are "
			    "refused", caps[i].count, caps[i].count_cap, caps[i].what);
		else if (caps[i].count_cap > 0 && caps[i].count * 100 >= (long long)caps[i].count_cap * STORE_CAP_WARN_PCT)
			fprintf(out, "%s: warning: %lld files, %lld%% of its cap of %ld (%s): at the cap new ones are "
			    "refused\n", caps[i].file, caps[i].count, caps[i].count * 100 / caps[i].count_cap,
			    caps[i].count_cap, caps[i].what);
	}
}

/*
 * Every game the ratings file counts follows the rule (ratings.h): one that
 * does not (a file made by an older version, an edit) is a problem naming
 * the rule; `oustpbm ratings --rebuild` mends it.
 */
static void check_ratings_rule(struct store *st, FILE *out, unsigned *problems)
{
	char err[RATINGS_ERR_MAX], *text = NULL;
	struct gamefile_error gerr;
	struct ratings r;
	struct game g;
	size_t i, len;

	memset(&r, 0, sizeof r);
	if (ratings_load(st, false, &r, err) != STORE_OK)
		return;		/* a damaged file: `oustpbm ratings` says where */
	for (i = 0; i < r.nresults; i++) {
		if (store_board_read(st, r.results[i].board, &text, &len) != STORE_OK)
			continue;
		memset(&g, 0, sizeof g);
		if (gamefile_parse(text, len, &g, &gerr) == GAME_OK && !ratings_game_counts(&g))
			report(out, problems, RATINGS_FILE, 0, "board %ld is counted, but %s (oustpbm ratings "
			    "--rebuild)", r.results[i].board, RATINGS_RULE_SHORT);
		game_release(&g);
		free(text);
		text = NULL;
	}
	ratings_release(&r);
}

static enum process_status worst(enum process_status a, enum process_status b)
{
	return a > b ? a : b;
}

enum process_status fsck_run(struct store *st, const long *boards, size_t n, FILE *out, unsigned *problems)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss;
	enum process_status fs = PROCESS_OK;
	long *all = NULL;
	size_t count = 0, i;

	*problems = 0;
	if (n > 0) {
		for (i = 0; i < n; i++)
			fs = worst(fs, check_board(st, boards[i], out, problems));
		return fs;
	}
	/* first, as a file root left behind may be what stops the rest */
	fs = check_owner(st, out, problems);
	/* no board is created while the counter and the list are compared */
	ss = store_lock_store(st, &lock);
	if (ss != STORE_OK) {
		report(out, problems, "store.lock", 0, "%s", store_error(st));
		return worst(fs, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR);
	}
	ss = store_list_boards(st, &all, &count);
	if (ss != STORE_OK) {
		store_unlock(&lock);
		report(out, problems, "games", 0, "%s", store_error(st));
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
	}
	fs = worst(fs, check_counter(st, all, count, out, problems));
	store_unlock(&lock);
	fs = worst(fs, check_users(st, out, problems));
	fs = worst(fs, check_reserved(st, out, problems));
	fs = worst(fs, check_vacations(st, out, problems));
	fs = worst(fs, check_settings(st, out, problems));
	fs = worst(fs, check_bounces(st, out, problems));
	fs = worst(fs, check_codes(st, out, problems));
	check_caps(st, out, problems);
	check_ratings_rule(st, out, problems);
	tournament_fsck(st, all, count, out, problems);
	fs = worst(fs, check_names(st, out, problems));
	fs = worst(fs, check_kinds(st, ".", out, problems));
	fs = worst(fs, check_kinds(st, "games", out, problems));
	fs = worst(fs, check_tmp(st, ".", out, problems));
	fs = worst(fs, check_tmp(st, "games", out, problems));
	for (i = 0; i < count; i++)
		fs = worst(fs, check_board(st, all[i], out, problems));
	free(all);
	return fs;
}
