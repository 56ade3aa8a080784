/*
 * bounces: the addresses mail to them bounced from, in <home>/bounces, one
 * line per address:
 *     address count last status [mark]
 * address  as the bounce named it, lower case
 * count    bounces since the address last wrote to the server
 * last     the time of the last one (UTC, as the game files write times)
 * status   its status: an RFC 3463 code (5.1.1) or an SMTP reply code (550)
 * mark     for a delivery report, the mac of the id of the mail it was
 *          about (mail/idmac.h): the same mail reported again (a copy
 *          delivered again after a crash, a report replayed) does not count
 *          again, the count and this proof written in one durable write;
 *          none for a refusal counted by the outbox
 * '#' lines and blank lines are ignored; a line that does not parse makes
 * the file STORE_CORRUPT, naming the line (fsck and status show it).
 *
 * A bounce is a delivery status notification naming a mail of ours
 * (mail/dsn.h; counted by the mail pipeline) or a 5xx answer to RCPT when a
 * reply is sent (counted by the outbox flush).  Once an address has
 * bounce_limit bounces (config.h) the outbox sends it nothing more: its
 * replies go to outbox/failed/ unsent (the admin can requeue them); a mail
 * from the address clears its line, so the player who writes again gets
 * the answer.  Mailing-list managers do the same with dead addresses.
 *
 * The file is rewritten whole, durably (store_write_file), under
 * bounces.lock, by each change; it is read with a cap (BOUNCES_FILE_MAX).
 * Each change prunes it: lines below the limit whose last bounce is older
 * than BOUNCES_KEEP_DAYS go (a bounce long ago says nothing of the address
 * now), and past BOUNCES_MAX lines the oldest go first.
 */
#ifndef OUSTPBM_BOUNCES_H
#define OUSTPBM_BOUNCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/mailaddr.h"
#include "store/store.h"

#define BOUNCES_FILE "bounces"
#define BOUNCES_LOCK_FILE "bounces.lock"
#define BOUNCES_FILE_MAX (1024L * 1024)	/* bytes read of the file */
#define BOUNCES_MAX 5000		/* lines kept (each under 300 bytes: under the cap) */
#define BOUNCES_KEEP_DAYS 30		/* a line below the limit kept this long after its last bounce */
#define BOUNCES_STATUS_MAX 15
#define BOUNCES_MARK_MAX 32		/* characters of a mark: [0-9a-f] */

struct bounce {
	char address[MAILADDR_MAX + 1];
	unsigned long count;
	int64_t last;
	char status[BOUNCES_STATUS_MAX + 1];
	char mark[BOUNCES_MARK_MAX + 1];	/* "" for none */
};

/* Every line (none if the file does not exist); the caller frees *list. */
enum store_status bounces_read(struct store *st, struct bounce **list, size_t *n);

/* The line of address (any case) in list[0..n), or NULL. */
const struct bounce *bounces_of(const struct bounce *list, size_t n, const char *address);

/* True if b stops mail to its address: bounce_limit reached (limit 0: never). */
bool bounces_stopped(const struct bounce *b, unsigned long limit);

/*
 * One more bounce of address at now with status, the file pruned (limit:
 * bounce_limit, what pruning keeps); *count (may be NULL) the address's
 * count after it.  Takes bounces.lock for at most timeout_ms.
 */
enum store_status bounces_add(struct store *st, const char *address, const char *status, int64_t now,
    unsigned long limit, unsigned long timeout_ms, unsigned long *count);

/*
 * A delivery report about the mail marked b->mark (lower-case hex) to
 * b->address with b->status at b->last (count unused): *counted false, and
 * nothing written, when the address's line already carries that mark (the
 * same report counted before); else one more bounce as bounces_add() and
 * *counted true.  *count is the address's count after it.
 */
enum store_status bounces_add_report(struct store *st, const struct bounce *b, unsigned long limit,
    unsigned long timeout_ms, unsigned long *count, bool *counted);

/*
 * The address wrote: its line removed, if any; *had (may be NULL) its
 * count before (0: none).  Reads only when there is no line.
 */
enum store_status bounces_clear(struct store *st, const char *address, unsigned long timeout_ms,
    unsigned long *had);

/*
 * The status of a refusal for the file: the RFC 3463 code after the reply
 * code of an SMTP reply ("550 5.1.1 ..."), else the reply code, else "5".
 */
void bounces_status_of(const char *reply, char out[BOUNCES_STATUS_MAX + 1]);

#endif
