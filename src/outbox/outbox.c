/*
 * outbox: queue of outgoing replies, crash-safe commit with the game file,
 * flush.  The parts, over outbox_int.h: outbox_handle.c (the handle, its
 * errors and log, the queue ids), outbox_queue.c (the queue files, the
 * batches, recovery), outbox_deliver.c (a flush), outbox_retry.c (backoff,
 * failure, the sent and failed mails, requeue), outbox_list.c (listing).
 */
#include "mail/mailout.h"
#include "outbox/outbox.h"

/* The outbox takes every reply the mail layer composes. */
_Static_assert(OUTBOX_MESSAGE_MAX == MAILOUT_MESSAGE_MAX, "outbox and mailout message caps differ");

const char *outbox_status_str(enum outbox_status status)
{
	switch (status) {
	case OUTBOX_OK:
		return "ok";
	case OUTBOX_BAD_ADDRESS:
		return "invalid address";
	case OUTBOX_TOO_BIG:
		return "message too big";
	case OUTBOX_TIMEOUT:
		return "lock timeout";
	case OUTBOX_TEMPFAIL:
		return "temporary system error";
	case OUTBOX_IO:
		return "system error";
	case OUTBOX_NO_SPACE:
		return "no space left (disk full, quota or file size limit)";
	case OUTBOX_DISK_ERROR:
		return "disk input/output error";
	case OUTBOX_CONFIG:
		return "bad configuration";
	case OUTBOX_NO_SUCH_ID:
		return "no such queued mail";
	case OUTBOX_REFUSED:
		return "refused by the server";
	case OUTBOX_UNAVAILABLE:
		return "server unavailable";
	case OUTBOX_DENIED:
		return "login refused";
	case OUTBOX_NOMEM:
		return "out of memory";
	}
	return "unknown status";
}

enum store_status outbox_store_status(enum outbox_status status)
{
	switch (status) {
	case OUTBOX_NO_SPACE:
		return STORE_NO_SPACE;
	case OUTBOX_DISK_ERROR:
		return STORE_DISK_ERROR;
	case OUTBOX_TEMPFAIL:
		return STORE_TEMPFAIL;
	case OUTBOX_TIMEOUT:
		return STORE_TIMEOUT;
	case OUTBOX_TOO_BIG:
		return STORE_TOO_BIG;
	case OUTBOX_IO:
		return STORE_IO;
	default:
		return STORE_OK;
	}
}

bool outbox_status_temporary(enum outbox_status status)
{
	return status == OUTBOX_TIMEOUT || status == OUTBOX_TEMPFAIL || status == OUTBOX_NO_SPACE ||
	    status == OUTBOX_DISK_ERROR;
}
