/*
 * tournament: the mail commands that make a tournament (tournament
 * <userid> <password> <format> [options] <name words>, its sender the
 * director) and show one (tournament <id>).  The rules: game/tourn.h; the
 * boards, results and mails: services/tournament.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/utf8.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/tournament.h"
#include "store/tourns.h"

/* "-key=N" with N from lo to hi; false with why. */
static bool number_option(const char *w, const char *key, int lo, int hi, int *out, char *why)
{
	size_t k = strlen(key);
	char *end;
	long v;

	if (strncasecmp(w, key, k) != 0 || w[k] != '=' || w[k + 1] < '0' || w[k + 1] > '9')
		goto bad;
	v = strtol(w + k + 1, &end, 10);
	if (*end != '\0' || v < lo || v > hi)
		goto bad;
	*out = (int)v;
	return true;
bad:
	snprintf(why, TOURN_ERR_MAX, "'%.40s': want %s=N, N from %d to %d", w, key, lo, hi);
	return false;
}

/* One of the tournament's own options (true with *mine), or a board option left for the challenge's parser. */
static bool own_option(struct tourn *t, const char *w, bool *mine, char *why)
{
	int lo, hi;
	char *dash;

	*mine = true;
	if (strncasecmp(w, "-players=", 9) == 0) {
		lo = (int)strtol(w + 9, &dash, 10);
		hi = *dash == '-' ? (int)strtol(dash + 1, &dash, 10) : -1;
		if (*dash != '\0' || lo < 2 || hi < lo || hi > TOURN_PLAYERS_MAX) {
			snprintf(why, TOURN_ERR_MAX, "'%.40s': want -players=MIN-MAX, 2 <= MIN <= MAX <= %d", w,
			    TOURN_PLAYERS_MAX);
			return false;
		}
		t->min_players = lo;
		t->max_players = hi;
	} else if (strcasecmp(w, "-double") == 0 && t->format == TOURN_ROUNDROBIN) {
		t->twice = true;
	} else if (strcasecmp(w, "-repeat") == 0 && t->format == TOURN_LADDER) {
		snprintf(why, TOURN_ERR_MAX, "-repeat is not an option of a ladder: a ladder has no editions, it runs on "
		    "and takes players while it runs (-repeat: roundrobin, swiss, knockout)");
		return false;
	} else if (strcasecmp(w, "-repeat") == 0) {
		t->repeat = true;
	} else if (strncasecmp(w, "-rounds=", 8) == 0 && (t->format == TOURN_SWISS || t->format == TOURN_LADDER)) {
		return number_option(w, "-rounds", 1, t->format == TOURN_SWISS ? TOURN_ROUNDS_MAX : 1000, &t->rounds, why);
	} else if (strncasecmp(w, "-reach=", 7) == 0 && t->format == TOURN_LADDER) {
		return number_option(w, "-reach", 1, 50, &t->reach, why);
	} else if (strncasecmp(w, "-idle=", 6) == 0 && t->format == TOURN_LADDER) {
		return number_option(w, "-idle", 0, 3650, &t->idle_days, why);
	} else if (strncasecmp(w, "-double", 7) == 0 || strncasecmp(w, "-rounds", 7) == 0 ||
	    strncasecmp(w, "-reach", 6) == 0 || strncasecmp(w, "-idle", 5) == 0) {
		snprintf(why, TOURN_ERR_MAX, "'%.40s' is not an option of a %s (-double: round robin; -rounds=N: swiss, "
		    "ladder; -reach=N, -idle=DAYS: ladder)", w, tourn_format_name(t->format));
		return false;
	} else {
		*mine = false;
	}
	return true;
}

/* The words after the password: format, options, name, into t; false with why. */
static bool read_words(struct tourn *t, const char *text, char *why)
{
	char buf[COMMAND_LINE_MAX + 1], *save = NULL, *w, board[TOURN_OPTIONS_MAX + 1] = "";
	size_t bl = 0, nl = 0, bad;
	bool mine, named = false;
	enum tourn_format f;
	struct command o;

	snprintf(buf, sizeof buf, "%s", text);
	w = strtok_r(buf, " \t", &save);
	if (w == NULL || (strcasecmp(w, "round-robin") != 0 && !tourn_format_parse(w, &f))) {
		snprintf(why, TOURN_ERR_MAX, "'%.40s' is no tournament format: roundrobin, swiss, knockout or ladder",
		    w != NULL ? w : "");
		return false;
	}
	t->format = strcasecmp(w, "round-robin") == 0 ? TOURN_ROUNDROBIN : f;
	{
		struct tourn *d = tourn_new(0, t->format);

		if (d == NULL) {
			snprintf(why, TOURN_ERR_MAX, "out of memory");
			return false;
		}
		t->min_players = d->min_players;
		t->max_players = d->max_players;
		t->rounds = d->rounds;
		tourn_free(d);
	}
	while ((w = strtok_r(NULL, " \t", &save)) != NULL) {
		if (w[0] == '-' && !named) {
			if (!own_option(t, w, &mine, why))
				return false;
			if (!mine) {
				if (bl + strlen(w) + 2 > sizeof board) {
					snprintf(why, TOURN_ERR_MAX, "the board options are longer than %d characters",
					    TOURN_OPTIONS_MAX);
					return false;
				}
				bl += (size_t)snprintf(board + bl, sizeof board - bl, "%s%s", bl > 0 ? " " : "", w);
			}
			continue;
		}
		named = true;
		if (nl + strlen(w) + 2 > sizeof t->name) {
			snprintf(why, TOURN_ERR_MAX, "the name is longer than %d characters", TOURN_NAME_MAX);
			return false;
		}
		nl += (size_t)snprintf(t->name + nl, sizeof t->name - nl, "%s%s", nl > 0 ? " " : "", w);
	}
	if (!named) {
		snprintf(why, TOURN_ERR_MAX, "the tournament needs a name, after its options");
		return false;
	}
	if (!utf8_text_ok(t->name, strlen(t->name), &bad)) {
		snprintf(why, TOURN_ERR_MAX, "the name has a character that is not printable text");
		return false;
	}
	if (!tournament_options(board, &o, why, TOURN_ERR_MAX))
		return false;
	memcpy(t->options, board, bl + 1);
	return true;
}

/* How many tournaments open or running userid directs; -1 (err) when they cannot be read. */
static int directed(struct job *j, const char *userid, char *err)
{
	unsigned *ids = NULL;
	size_t n = 0, i;
	int count = 0;

	if (tourns_list(j->srv.st, &ids, &n) != STORE_OK) {
		snprintf(err, TOURNS_ERR_MAX, "cannot list the tournaments: %s", store_error(j->srv.st));
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct tourn *t = NULL;

		if (tourns_load(j->srv.st, ids[i], &t, err) == STORE_OK && t->state != TOURN_FINISHED &&
		    strcmp(t->director, userid) == 0)
			count++;
		tourn_free(t);
	}
	free(ids);
	return count;
}

/* tournament <userid> <password> <format> [options] <name words> (MAILCMD_LOGIN: j->user the director). */
enum process_status tournament_run(struct job *j)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char why[TOURNS_ERR_MAX], subject[TOURN_NAME_MAX + 80], title[TOURN_NAME_MAX + 40], text[1200];
	unsigned long max = j->srv.cfg.max_tournaments_per_director;
	enum process_status ps;
	enum store_status ss;
	struct tourn *t;
	int count;

	t = tourn_new(0, TOURN_ROUNDROBIN);
	if (t == NULL)
		return job_no_memory(j);
	if (!read_words(t, j->cmd.text, why)) {
		ps = job_refuse(j, NULL, "%s. Send: tournament %s <password> <format> [options] <name>", why, j->user.userid);
		goto out;
	}
	snprintf(t->director, sizeof t->director, "%s", j->user.userid);
	t->created = (int64_t)j->srv.now;
	ss = tourns_lock(j->srv.st, j->srv.cfg.lock_timeout_ms, &lock, why);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot lock the tournaments");
		goto out;
	}
	count = directed(j, j->user.userid, why);
	if (count < 0) {
		ps = job_store_failure(j, STORE_TEMPFAIL, why);
		goto out;
	}
	if (max != 0 && (unsigned long)count >= max) {
		ps = job_refuse(j, NULL, "%s directs %d tournament%s open or running already "
		    "(max_tournaments_per_director = %lu): a new one when one has ended", j->user.userid, count,
		    count == 1 ? "" : "s", max);
		goto out;
	}
	ss = tourns_create(j->srv.st, t, why);
	if (ss == STORE_FULL) {
		ps = job_refuse(j, NULL, "the server holds all the tournaments it can for now: ask its admin");
		goto out;
	}
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot write the tournament");
		goto out;
	}
	store_unlock(&lock);
	tournament_title(t, title, sizeof title);
	snprintf(subject, sizeof subject, "Oust tournament %s made", title);
	snprintf(text, sizeof text, "You made the tournament %s, and direct it.\n\n"
	    "Boards: %s\nPlayers: %d to %d%s\n%s\n"
	    "Players join with:   join T%u <userid> <password>\n"
	    "To play in it too:   join T%u %s <password>\n"
	    "The robot plays:     join T%u %s <password> -robot=N (level 1 to 5)\n"
	    "To begin it:         begin T%u %s <password>%s\n"
	    "To see it:           tournament T%u\n",
	    title, t->options[0] != '\0' ? t->options : "the server's defaults", t->min_players, t->max_players,
	    t->format == TOURN_LADDER ? "" : " (it begins by itself when the last place is taken)",
	    t->repeat ? "Repeat: a new edition with the players still in it at its end\n" : "", t->id, t->id,
	    t->director, t->id, t->director, t->id, t->director,
	    t->format == TOURN_LADDER ? " (a ladder takes players after its start too)" : "", t->id);
	ps = tournament_reply(j, subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "tournament T%u made: %s, %s", t->id, tourn_format_name(t->format), t->name);
out:
	store_unlock(&lock);
	tourn_free(t);
	return ps;
}

/* tournament <id>: the players, the pairings with their boards, the standings and crosstable. */
enum process_status tournament_show_run(struct job *j)
{
	char err[TOURNS_ERR_MAX], subject[TOURN_NAME_MAX + 80], title[TOURN_NAME_MAX + 40], *text;
	enum process_status ps;
	enum store_status ss;
	struct tourn *t = NULL;

	ss = tourns_load(j->srv.st, j->cmd.tournament, &t, err);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "there is no tournament T%u: send \"tournaments\" for the list",
		    j->cmd.tournament);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, err);
	text = tournament_text(t);
	if (text == NULL) {
		tourn_free(t);
		return job_no_memory(j);
	}
	tournament_title(t, title, sizeof title);
	snprintf(subject, sizeof subject, "Oust tournament %s", title);
	ps = tournament_reply(j, subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "tournament T%u shown", t->id);
	free(text);
	tourn_free(t);
	return ps;
}
