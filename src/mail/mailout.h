/*
 * mailout: the replies oustpbm sends, composed with GMime into complete
 * RFC 5322 messages (no sending here), and the plain-text templates their
 * bodies are made from.
 *
 * A reply is text/plain; charset=utf-8, sent 7bit when GMime finds that
 * safe and quoted-printable otherwise (non-ASCII text, long lines; never
 * base64, so the raw reply stays readable), so the body comes out of any
 * reader byte for byte as given: no reflowing, no format=flowed, ASCII boards intact.  Header values
 * are cleaned (CR, LF, TAB become spaces, other control characters go,
 * invalid UTF-8 is replaced), so nothing from a player can add a header;
 * non-ASCII names and subjects become RFC 2047 encoded words.  Lines end in
 * LF; a transport that needs CRLF converts.
 *
 * A reply with an HTML version (a board drawn as a table) is
 * multipart/alternative (RFC 2046 5.1.4): the text/plain part exactly as
 * above first, then text/html; charset=utf-8, quoted-printable.  The
 * boundary is made from the Message-ID, so the same reply is the same
 * bytes, and starts with "=_", which quoted-printable never writes; it is
 * changed if the text happens to hold it.
 *
 * A reply with a file attached (a game record) is multipart/mixed (RFC 2046
 * 5.1.3): the text (or the alternative above) first, then the file with its
 * media type and Content-Disposition: attachment and its filename (RFC
 * 2183), 7bit when it can be and quoted-printable otherwise, as the text.
 */
#ifndef OUSTPBM_MAILOUT_H
#define OUSTPBM_MAILOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "mail/mail.h"

#define MAILOUT_NAME_MAX 256		/* bytes of a display name kept: a whole full name (ident.h) */
#define MAILOUT_SUBJECT_MAX 500		/* bytes of a subject kept */
#define MAILOUT_ID_MAX 250		/* bytes of a message id */
#define MAILOUT_REFERENCES_MAX 12	/* ids in References: the root and the last ones */
#define MAILOUT_TEMPLATE_MAX 65536	/* bytes of a template file */
#define MAILOUT_ERR_MAX 256		/* enough for any error message */
#define MAILOUT_MESSAGE_MAX (8L * 1024 * 1024)	/* bytes in one composed reply, as the outbox takes */

/*
 * One reply.  Strings are UTF-8; ids are without angle brackets.  NULL and ""
 * mean "none" for the optional ones.
 */
struct mailout_spec {
	const char *from_addr;	/* the server address */
	const char *from_name;	/* server_name (optional) */
	const char *to_addr;	/* the player */
	const char *to_name;	/* the player's full name (optional) */
	const char *subject;
	const char *body;	/* LF line ends; a final LF is added if missing */
	time_t date;		/* Date:, written in UTC */
	const char *message_id;	/* optional: else <time.pid.counter@domain of from_addr> */
	const char *in_reply_to;	/* optional: the incoming mail's Message-ID */
	const char *references;	/* optional: the incoming mail's References, space separated */
	const char *root_id;	/* optional: the board's root id, first in References; left out if bad */
	bool generated;		/* answers no mail: auto-generated, not auto-replied */
	const char *html;	/* optional: the same as HTML, a text/html alternative after the text */
	const char *attachment;	/* optional: a file attached after the text: attachment_len bytes, then a NUL */
	size_t attachment_len;
	const char *attachment_type;	/* its media type, "type/subtype" ("application/x-go-sgf") */
	const char *attachment_name;	/* its file name: [A-Za-z0-9._-], 1 to 64 characters */
	const char *list_unsubscribe;	/* optional: the List-Unsubscribe value, "<mailto:...>" (unsubtoken.h) */
	/*
	 * optional: the key of the ids (idmac.h, IDMAC_KEY_BYTES): the
	 * Message-ID sent is then the id bound to to_addr by its mac, so
	 * that a report about it can be told from a forged one
	 */
	const unsigned char *id_key;
	const char *robot_mac;	/* optional: a board mail's MAC for the robot host, hex (robotmac.h) */
};

/*
 * Compose the message.  On MAIL_OK *out is a NUL-terminated message of
 * *len bytes that the caller frees with free().  References is root_id,
 * then the incoming References, then in_reply_to, without repeats; when
 * there are more than MAILOUT_REFERENCES_MAX ids the root and the last
 * ones are kept (RFC 5322 3.6.4).  Ids in references and in_reply_to that
 * are not message ids (msgid.h) are skipped, since they come from the
 * player's mail, and so is a bad root_id (a hand-edited game file): the
 * reply goes without it rather than not at all.
 */
enum mail_status mailout_compose(const struct mailout_spec *spec, char **out, size_t *len);

/* A template variable: {name} is replaced by value. */
struct mailout_var {
	const char *name;
	const char *value;
};

/*
 * Expand template_text: each {name} (letters, digits, '_') becomes the
 * value of the variable of that name, inserted as it is (values may span
 * lines); "{{" is a literal '{'.  A '}' alone is a literal '}'.  On
 * MAIL_OK *out is a string the caller frees; on MAIL_BAD_TEMPLATE err
 * (errlen bytes) names the line and the culprit:
 *   line 3: unknown placeholder '{bord}'
 *   line 5: '{' opens no placeholder; write '{{' for a literal '{'
 */
enum mail_status mailout_template_expand(const char *template_text, const struct mailout_var *vars,
    size_t nvars, char **out, char *err, size_t errlen);

/*
 * Read the template <dir>/<name>.txt into *out (the caller frees it).  name
 * is 1 to 64 letters, digits, '_' and '-', or that followed by ".html" for
 * the HTML template <dir>/<name> itself.  The file must be at most
 * MAILOUT_TEMPLATE_MAX bytes of UTF-8 text; CRLF line ends become LF.  On
 * failure err (errlen bytes) says what was wrong, naming the file.
 */
enum mail_status mailout_template_load(const char *dir, const char *name, char **out,
    char *err, size_t errlen);

/*
 * GMime set-up, as for mailin: mailout_compose() initialises GMime when
 * needed; mailout_shutdown() releases this module's hold on it and is
 * final (call it just before exit, or never).
 */
void mailout_init(void);
void mailout_shutdown(void);

#endif
