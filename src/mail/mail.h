/*
 * mail: the one status of the mail layer, returned by every module of it
 * that can fail (mailin, mailout, mailpart, dsn, authres, reply,
 * unsubtoken), and its text.  It is this layer's lowest header: the
 * others include it.
 *
 * What a mail says is not a failure and keeps types of its own: a
 * command's parse (enum command_result: the sender's text, answered in a
 * reply), the verdict on a sender's authentication (enum authres_verdict),
 * what a delivery report says became of a recipient (enum dsn_action).
 */
#ifndef OUSTPBM_MAIL_H
#define OUSTPBM_MAIL_H

enum mail_status {
	MAIL_OK = 0,
	MAIL_NOMEM,		/* out of memory */
	/* mailin: the mail read */
	MAIL_READ_ERROR,	/* read(2) on the input failed */
	MAIL_TOO_BIG,		/* larger than the cap: only the header section was kept */
	MAIL_UNPARSABLE,	/* not a mail at all: empty, no header (mailpart: cannot be parsed) */
	MAIL_NO_FROM,		/* no From header */
	MAIL_TWO_FROM,		/* more than one From header */
	MAIL_BAD_FROM,		/* From is not exactly one address passing mailaddr_ok() */
	MAIL_UTF8_FROM,		/* From's local part is not ASCII (SMTPUTF8, RFC 6531): not answered */
	MAIL_TOO_DEEP,		/* MIME nesting deeper than MAILIN_MAX_DEPTH before a text part */
	/* mailpart, dsn, authres: a part or a field of it */
	MAIL_NO_PART,		/* mailpart: no part of that type */
	MAIL_PART_TOO_BIG,	/* mailpart: the part is larger than the cap */
	MAIL_NOT_A_REPORT,	/* dsn: no delivery-status part, no X-Failed-Recipients */
	MAIL_AUTHRES_NO_ID,	/* authres: no authserv-id could be read */
	MAIL_AUTHRES_VERSION,	/* authres: a version other than 1: the field is ignored (RFC 8601 2.2) */
	MAIL_AUTHRES_SYNTAX,	/* authres: no "; none" nor any resinfo after the authserv-id */
	MAIL_AUTHRES_TOO_LONG,	/* authres: longer than AUTHRES_FIELD_MAX */
	/* mailout: a mail made */
	MAIL_BAD_ADDRESS,	/* from_addr or to_addr fails mailaddr_ok() */
	MAIL_BAD_ID,		/* message_id is no message id (msgid.h), or the generated one is too long */
	MAIL_BAD_BODY,		/* body is not UTF-8 text (a control character other than LF, TAB) */
	MAIL_BAD_DATE,		/* date is outside what GLib can write (years 1..9999) */
	MAIL_WRITE,		/* GMime could not write the message */
	MAIL_BAD_TEMPLATE,	/* a template is malformed (see the error message) */
	MAIL_BAD_TEMPLATE_NAME,	/* a template name that is not [A-Za-z0-9_-]{1,64} */
	MAIL_NO_TEMPLATE,	/* no such template file */
	MAIL_TEMPLATE_IO,	/* the template file cannot be read */
	MAIL_TEMPLATE_TOO_BIG,	/* the template file exceeds its cap */
	/* reply: a reply made from its template */
	MAIL_TEMPLATE,		/* no templates directory, or a template missing or malformed */
	MAIL_COMPOSE,		/* mailout refused the message (a bad address, say) */
	/* unsubtoken */
	MAIL_BAD_TOKEN,		/* not a token of this server: its shape, or its mac */
	MAIL_TOKEN_TOO_LONG,	/* the user id and scope leave no room for the mac */
	MAIL_NO_SECRET,		/* the secret file cannot be read or made */
};

/* What status says, for a message: "the mail has no From header"... */
const char *mail_status_str(enum mail_status status);

#endif
