/*
 * tournament: what the tournament commands (tournament, join, withdraw,
 * begin, tournaments, challenge -ladder) and the end of a game share: a
 * tournament's boards started, its results taken from its boards, its
 * next step taken and its mails sent (game/tourn.h: the rules;
 * store/tourns.h: the files).
 *
 * Every change goes one way, so that a crash at any point leaves a state
 * the next settle finishes (tournament_settle, called by every command on
 * the tournament, by the end of each of its games and by `oustpbm cleanup`):
 *   1. the tournament file records the new games with their board numbers
 *      (taken from games/next-board, one write for them all) before any
 *      board is made;
 *   2. the boards not made yet go into their players' lists, one append
 *      per player (players.h: listed before the game file exists), then
 *      the boards whose game file does not exist yet are made in batches
 *      (tournstart.h): each batch's leftovers of a killed run removed,
 *      every board's mails and game file staged, one sync (the lists'
 *      appends with them), the game files renamed into place, one sync,
 *      the mails released.  A board is all or nothing with its mails, and
 *      says its tournament (tournament: T<n>, read by the hook after a
 *      delivery that ends it);
 *   3. the pairings mails of the round go out in one batch (one sync),
 *      then `mailed:` is written (a crash between the two mails them
 *      again: at least once, never none);
 *   4. a -repeat tournament that ended (not a ladder: it never ends by
 *      itself) with enough players still in it: its next edition's id is
 *      reserved (next: T<n> written into its file), then the edition is
 *      made from it and begun (tournament_begin: its first write is the
 *      begun file, previous: T<old>), then the final standings are mailed
 *      naming it and final-mailed: written.  A settle that finds next:
 *      without its file makes it; one that finds it begun settles it; one
 *      that finds the id taken by another tournament (made while a crash
 *      had cut this short) reserves another: exactly one next edition.
 * A kill at any durable step leaves no board (before 1's write), or all
 * of them, or some with the rest numbered in the file: the next settle
 * (the next delivery on the tournament, or cleanup) makes the rest, and
 * the next flush sends the mails of a board made but not released
 * (tests/sh/tournament-crash45.sh: a 45-board start killed at each step).
 * The end of a board is read from the board itself: a tournament file that
 * missed a result (a crash after the board's commit) gets it at the next settle.
 */
#ifndef OUSTPBM_TOURNAMENT_H
#define OUSTPBM_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "game/tourn.h"
#include "mail/command.h"

#define TOURNAMENT_ERR_MAX 300

/* A tournament's functions return (status.h) PROCESS_OK, PROCESS_TEMPFAIL (a lock, the disk, memory: try again) or PROCESS_SOFTWARE (a damaged file, a template missing). */

/*
 * The board options of a tournament (its options: line) read as a
 * challenge's options, by the challenge command's own parser, into *out
 * (size, hex, noswap, unrated, remind_days, timeout_days...).  False with
 * why when they are not a challenge's, or name a colour or a robot level
 * (the pairing gives the colours, join -robot=N the level).
 */
bool tournament_options(const char *options, struct command *out, char *why, size_t whylen);

/*
 * Settle t (loaded, tournaments/lock held): the results of its ended
 * boards taken, its next step taken (tourn_result_of), board numbers given
 * to its new games and the file written, the missing boards made, the
 * pairings and final mails sent; the file written again when that changed
 * it.  err says what failed.
 */
enum process_status tournament_settle(struct server *srv, struct tourn *t, char *err);

/*
 * Begin t (loaded, the lock held): seeded, paired, its boards numbered and
 * written, made, mailed (tournament_settle).  *begun false with why (a
 * refusal's words: too few players) when it cannot begin; else err in why.
 */
enum process_status tournament_begin(struct server *srv, struct tourn *t, bool *begun, char *why);

/*
 * Step 4 of the settle (above): t (finished, not final-mailed yet, the
 * lock held) with -repeat gets its next edition, made and begun: the
 * players still in it at its end (not those who left; the robot at its
 * level), its director, format and options, its name with ", edition N",
 * a new id.  When none can be made (too few players, the server full),
 * whynot (size bytes) says why in a line for the final mail; else it is
 * empty.  err says what failed.
 */
enum process_status tournament_next_edition(struct server *srv, struct tourn *t, char *whynot, size_t size,
    char *err);

/* The players of t still in it (not left): those a next edition takes. */
size_t tournament_edition_players(const struct tourn *t);

/* Load tournament id, settle it, under the lock; for the hooks and cleanup. */
enum process_status tournament_settle_id(struct server *srv, unsigned id, char *err);

/* Every running tournament settled (cleanup); *n how many were. */
enum process_status tournament_settle_all(struct server *srv, unsigned *n, char *err);

/* A notice mail (templates/notice.txt) of text to userid's registered address (none for the robot). */
enum process_status tournament_notice(struct server *srv, const char *userid, const char *subject,
    const char *text, char *err);

/* The whole of t as text (`tournament <id>`): the header, the players, the pairings, the standings. The caller frees it. */
char *tournament_text(const struct tourn *t);

/* userid's rating in the class of t's boards (the seeding), 1500 when unrated. */
int tournament_rating(struct server *srv, const struct tourn *t, const char *userid);

/*
 * userid leaves: board, if still being played with userid on it, is
 * resigned for them (its mails say note, the server's words), under its lock.
 */
enum process_status tournament_resign(struct server *srv, long board, const char *userid, const char *note,
    char *err);

struct job;
/* A reply to the sender of j (templates/notice.txt): subject, text. */
enum process_status tournament_reply(struct job *j, const char *subject, const char *text);

/*
 * challenge <userid> <password> <opponent> -ladder=<id>: a ladder game of
 * j->user against cmd.opponent, within the ladder's reach, one open
 * ladder challenge each; the board made on the ladder's options (the
 * challenge's -white gives the challenger White).  A refusal or the
 * reply, as a handler's.
 */
enum process_status tournament_ladder_challenge(struct job *j);

/*
 * Lock the tournaments (into *lock, the caller's to unlock) and load
 * tournament id into *t (the caller's to tourn_free), settled
 * (tournament_settle: what a crashed run left is finished first).
 * PROCESS_OK with *t NULL after a refusal (no such tournament); else a failure.
 */
enum process_status tournament_open(struct job *j, unsigned id, struct store_lock *lock, struct tourn **t);

/*
 * Keep the tournaments consistent when board is deleted (delboard: its
 * game annulled) or userid's account closes (deluser, signoff: userid
 * leaves each tournament, the withdrawal rule applied); 0 or NULL for none.
 */
enum process_status tournament_forget(struct server *srv, long board, const char *userid, char *err);

/*
 * fsck: every tournament file reads, and its games' boards have the
 * players it names; one line per problem to out, "tournaments/1: ...",
 * counted in *problems; a board not made yet (a start a crash cut short)
 * is a note, not counted.  Each board's tournament: key (doc/game-file.md)
 * names the tournament that lists it: a board of the home's boards[]
 * (nboards) naming another or one that does not list it is a problem; a
 * tournament's board without the key (written before it) a note.
 */
void tournament_fsck(struct store *st, const long *boards, size_t nboards, FILE *out, unsigned *problems);

/*
 * fsck: t's edition links (doc/game-file.md: next, previous): its next
 * edition exists and names t as its previous, the edition before names t
 * as its next; a next edition reserved but not made yet (a crash cut its
 * making short, before the final standings) a note.
 */
void tournament_edition_fsck(struct store *st, const struct tourn *t, FILE *out, unsigned *problems);

/* "T1 Spring cup (round robin)" into buf. */
void tournament_title(const struct tourn *t, char *buf, size_t size);

#endif
