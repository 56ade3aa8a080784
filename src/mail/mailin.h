/*
 * mailin: the one incoming mail, read from standard input and parsed with
 * GMime into plain C strings.  This module and mailout are the only users of
 * GMime; nothing outside them sees a GMime object.
 *
 * GMime's fs and file streams yield no message when stdin is a pipe, so the
 * mail is read into memory first (mailin_read, with a size cap) and parsed
 * from there (mailin_parse).  Everything handed out is clean UTF-8 (see
 * utf8.h): invalid bytes replaced, control characters removed, and no CR or
 * LF in any header value.
 *
 * How the caller maps statuses (sysexits.h):
 *   MAIL_READ_ERROR -> EX_TEMPFAIL: nothing happened, let the MTA retry.
 *   MAIL_UNPARSABLE -> EX_DATAERR.
 *   then, whatever the status, if out->automatic: log it and exit 0 (a bounce
 *   or an auto-reply is never answered, even with a broken From).
 *   MAIL_NO_FROM, MAIL_TWO_FROM, MAIL_BAD_FROM, MAIL_UTF8_FROM -> EX_DATAERR: there is
 *   nobody to answer, so the MTA's bounce tells the envelope sender.
 *   MAIL_TOO_BIG (from mailin_read) -> parse what was kept (the headers),
 *   then answer "too big" to out->from_addr; never act on its Subject, which
 *   may be cut short.
 *   MAIL_TOO_DEEP -> answer "nested too deeply" to out->from_addr.
 */
#ifndef OUSTPBM_MAILIN_H
#define OUSTPBM_MAILIN_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "mail/mail.h"

#define MAILIN_CAP_DEFAULT (256 * 1024)	/* bytes of mail read from stdin */
#define MAILIN_MAX_DEPTH 32		/* MIME nesting searched for the text part */
#define MAILIN_NAME_MAX 200		/* bytes of a display name kept */
#define MAILIN_SUBJECT_MAX 8192		/* bytes of the Subject kept */
#define MAILIN_ID_MAX 250		/* bytes of one message id */
#define MAILIN_REFERENCES_MAX 20	/* ids kept from References (the last ones) */

/*
 * The parsed mail.  Owns every string; free them with
 * mailin_message_release().  After mailin_parse() returns anything but
 * MAIL_NOMEM or MAIL_UNPARSABLE, every string is non-NULL ("" when the
 * header or part is missing), filled as far as the mail allowed.
 */
struct mailin_message {
	char *from_addr;	/* the addr-spec, passed mailaddr_ok(); domain lower-cased */
	char *from_name;	/* display name, decoded to UTF-8; "" if none */
	/*
	 * The subject and the body keep their control characters (a NUL as
	 * UTF8_NUL_MARK) for command_parse() to refuse: whoever shows them
	 * cleans them first (utf8_clean), as command.h does.
	 */
	char *subject;		/* decoded from RFC 2047 to UTF-8, one line */
	char *message_id;	/* without the angle brackets */
	char *message_key;	/* the Message-ID field's whole value, unfolded and trimmed, the
				   brackets of one "<id>" dropped: what tells one mail from
				   another (seen.h); "" if none */
	char *to_addr;		/* the first address of To: ("" if none): ours went to one (idmac.h) */
	char *in_reply_to;	/* the first id of In-Reply-To, without brackets */
	char *references;	/* References ids without brackets, space separated */
	char *date;		/* the Date header as written (cleaned) */
	time_t date_time;	/* Date as a time, -1 if missing or unreadable */
	char *body;		/* first text/plain part: UTF-8, LF line ends, format=flowed unwrapped */
	size_t body_len;
	bool automatic;		/* a bounce or automatic mail: never answer it */
	char *automatic_reason;	/* why, e.g. "Precedence: bulk"; "" if not automatic */
};

/*
 * Read all of fd into *buf (NUL-terminated; the caller frees it) and its
 * length into *len.  cap is the most bytes kept, 0 for MAILIN_CAP_DEFAULT.
 * If the input is longer, returns MAIL_TOO_BIG and keeps only the header
 * section (up to the first empty line, or up to the last complete line
 * within the cap), so the sender can still be told; the rest of the input
 * is read and discarded so the delivering MTA does not see a broken pipe.
 * On MAIL_READ_ERROR or MAIL_NOMEM *buf is NULL.
 */
enum mail_status mailin_read(int fd, size_t cap, char **buf, size_t *len);

/*
 * Parse the mail in buf[0..len).  A leading mbox "From " line, CRLF line
 * ends and NUL bytes are accepted.  out is overwritten; call
 * mailin_message_release() on it afterwards whatever the status.
 */
enum mail_status mailin_parse(const char *buf, size_t len, struct mailin_message *out);

/* Free what out holds and zero it. */
void mailin_message_release(struct mailin_message *out);

/*
 * GMime set-up.  mailin_parse() initialises GMime itself when needed.
 * mailin_shutdown() releases this module's hold on GMime (optional, just
 * before exit, so leak checkers see a clean heap); it is final, as GMime
 * cannot be initialised again once shut down.  Extra calls do nothing.
 */
void mailin_init(void);
void mailin_shutdown(void);

#endif
