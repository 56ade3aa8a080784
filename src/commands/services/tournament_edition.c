/*
 * tournament_edition: a -repeat tournament's next edition, made and begun
 * when it ends (tournament.h: the next edition).  Its own file so that the
 * begin path of tournament.c stays as it is: the new edition is begun by
 * tournament_begin(), as any tournament.
 */
#include "commands/services/tournament.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/tourns.h"

#define EDITION_WORDS ", edition "

static enum process_status of_store(enum store_status ss)
{
	return ss == STORE_OK ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

size_t tournament_edition_players(const struct tourn *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nplayers; i++)
		if (!t->players[i].left)
			n++;
	return n;
}

/*
 * The next edition's name: t's own without the ", edition N" its edition
 * was given, then ", edition <edition>"; the first part cut at a UTF-8
 * character's start so that the whole fits TOURN_NAME_MAX bytes.
 */
static void edition_name(const struct tourn *t, int edition, char name[TOURN_NAME_MAX + 1])
{
	char tail[40];
	size_t base = strlen(t->name), room;

	snprintf(tail, sizeof tail, "%s%d", EDITION_WORDS, t->edition);
	if (t->edition > 1 && base > strlen(tail) && strcmp(t->name + base - strlen(tail), tail) == 0)
		base -= strlen(tail);
	snprintf(tail, sizeof tail, "%s%d", EDITION_WORDS, edition);
	room = TOURN_NAME_MAX - strlen(tail);
	if (base > room) {
		base = room;
		/* a UTF-8 continuation byte (10xxxxxx) is no place to cut (RFC 3629, section 3) */
		while (base > 0 && ((unsigned char)t->name[base] & 0xc0) == 0x80)
			base--;
	}
	snprintf(name, TOURN_NAME_MAX + 1, "%.*s%s", (int)base, t->name, tail);
}

/* The next edition of t (open, id) with t's players still in it at its end; NULL when out of memory. */
static struct tourn *edition_new(struct server *srv, const struct tourn *t, unsigned id)
{
	struct tourn *n = tourn_new(id, t->format);
	size_t i;
	int p;

	if (n == NULL)
		return NULL;
	edition_name(t, t->edition + 1, n->name);
	memcpy(n->director, t->director, sizeof n->director);
	memcpy(n->options, t->options, sizeof n->options);
	n->min_players = t->min_players;
	n->max_players = t->max_players;
	n->twice = t->twice;
	n->repeat = t->repeat;
	n->rounds = t->format == TOURN_SWISS ? t->rounds : 0;
	n->reach = t->reach;
	n->idle_days = t->idle_days;
	n->created = (int64_t)srv->now;
	n->edition = t->edition + 1;
	n->previous = t->id;
	for (i = 0; i < t->nplayers; i++) {
		const struct tourn_player *tp = &t->players[i];

		if (tp->left)
			continue;
		/* the seeding of this edition: the ratings of now, as a join takes them */
		p = tourn_add_player(n, tp->userid, tournament_rating(srv, n, tp->userid), tp->robot);
		if (p < 0) {
			tourn_free(n);
			return NULL;
		}
		n->players[p].last = (int64_t)srv->now;
	}
	return n;
}

/* Reserve the next edition's id: next: T<n> written into t's file before the edition's own file (step 4). */
static enum process_status reserve(struct server *srv, struct tourn *t, char *whynot, size_t size, char *err)
{
	size_t left = tournament_edition_players(t);
	int need = t->min_players < 2 ? 2 : t->min_players;
	enum store_status ss;
	unsigned id;

	if ((int)left < need) {
		snprintf(whynot, size, "No next edition: %zu of its players %s still in it at its end, and it needs %d.\n",
		    left, left == 1 ? "was" : "were", need);
		return PROCESS_OK;
	}
	ss = tourns_next_id(srv->st, &id, err);
	if (ss == STORE_FULL) {
		snprintf(whynot, size, "No next edition: the server holds all the tournaments it can for now.\n");
		return PROCESS_OK;
	}
	if (ss != STORE_OK)
		return of_store(ss);
	t->next = id;
	ss = tourns_save(srv->st, t, err);
	if (ss != STORE_OK)
		t->next = 0;
	return of_store(ss);
}

enum process_status tournament_next_edition(struct server *srv, struct tourn *t, char *whynot, size_t size,
    char *err)
{
	enum process_status s = PROCESS_OK;
	enum store_status ss;
	struct tourn *n = NULL;
	char why[TOURNAMENT_ERR_MAX];
	bool begun;
	int tries;

	whynot[0] = '\0';
	if (!t->repeat || t->format == TOURN_LADDER || t->state != TOURN_FINISHED || t->final_mailed)
		return PROCESS_OK;
	for (tries = 0; tries < 2; tries++) {
		if (t->next == 0) {
			s = reserve(srv, t, whynot, size, err);
			if (s != PROCESS_OK || t->next == 0)
				return s;
		}
		ss = tourns_load(srv->st, t->next, &n, err);
		if (ss == STORE_NOT_FOUND) {
			/* reserved, not written yet: made and begun now (its first write is the begun file) */
			n = edition_new(srv, t, t->next);
			if (n == NULL) {
				snprintf(err, TOURNAMENT_ERR_MAX, "out of memory making T%u, the next edition of T%u", t->next,
				    t->id);
				return PROCESS_TEMPFAIL;
			}
		} else if (ss != STORE_OK) {
			return of_store(ss);
		} else if (n->previous != t->id) {
			/*
			 * The id reserved was taken by a `tournament` made while a
			 * crash had cut this edition short before its file: it
			 * never was this edition's, so another is reserved.
			 */
			tourn_free(n);
			n = NULL;
			t->next = 0;
			continue;
		}
		break;
	}
	if (n == NULL) {
		snprintf(err, TOURNAMENT_ERR_MAX, "no id for the next edition of T%u", t->id);
		return PROCESS_TEMPFAIL;
	}
	if (n->state == TOURN_OPEN) {
		s = tournament_begin(srv, n, &begun, why);
		if (s != PROCESS_OK)
			snprintf(err, TOURNAMENT_ERR_MAX, "T%u, the next edition: %.250s", n->id, why);
		else if (!begun && n->nplayers >= (size_t)(n->min_players < 2 ? 2 : n->min_players)) {
			snprintf(err, TOURNAMENT_ERR_MAX, "T%u, the next edition: %.250s", n->id, why);
			s = PROCESS_TEMPFAIL;	/* out of memory pairing it */
		} else if (!begun) {
			/* an admin's edit or a withdrawal from the open file left too few: it waits for joins */
			snprintf(whynot, size, "Its next edition, T%u, is open: %.200s.\n", n->id, why);
		} else {
			store_log(srv->st, "%s tournament T%u ok: its next edition T%u begun, %zu players", srv->stamp, t->id,
			    n->id, n->nplayers);
		}
	} else {
		/* begun: what a crash cut short of its begin (boards, mails) is finished */
		s = tournament_settle(srv, n, err);
	}
	tourn_free(n);
	return s;
}

void tournament_edition_fsck(struct store *st, const struct tourn *t, FILE *out, unsigned *problems)
{
	char err[TOURNS_ERR_MAX];
	struct tourn *o = NULL;
	enum store_status ss;

	if (t->next != 0) {
		ss = tourns_load(st, t->next, &o, err);
		if (ss == STORE_OK && o->previous == t->id) {
			/* the link both ways */
		} else if (!t->final_mailed && (ss == STORE_NOT_FOUND || ss == STORE_OK)) {
			fprintf(out, "%s/%u: note: its next edition T%u is reserved, not made yet (a crash cut it short; the "
			    "next delivery on it or cleanup makes it)\n", TOURNS_DIR, t->id, t->next);
		} else if (ss == STORE_NOT_FOUND) {
			fprintf(out, "%s/%u: its next edition T%u does not exist\n", TOURNS_DIR, t->id, t->next);
			(*problems)++;
		} else if (ss == STORE_OK) {
			fprintf(out, "%s/%u: its next edition T%u says it follows %s%u\n", TOURNS_DIR, t->id, t->next,
			    o->previous != 0 ? "T" : "no edition: ", o->previous);
			(*problems)++;
		}
		/* a next edition's file that does not read is named as itself */
		tourn_free(o);
		o = NULL;
	}
	if (t->previous != 0) {
		ss = tourns_load(st, t->previous, &o, err);
		if (ss == STORE_NOT_FOUND) {
			fprintf(out, "%s/%u: the edition before it, T%u, does not exist\n", TOURNS_DIR, t->id, t->previous);
			(*problems)++;
		} else if (ss == STORE_OK && o->next != t->id) {
			fprintf(out, "%s/%u: the edition before it, T%u, names %s%u as its next\n", TOURNS_DIR, t->id,
			    t->previous, o->next != 0 ? "T" : "no edition: ", o->next);
			(*problems)++;
		}
		tourn_free(o);
	}
}
