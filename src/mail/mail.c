/* mail: the mail layer's one status.  See mail.h. */
#include "mail/mail.h"

const char *mail_status_str(enum mail_status status)
{
	switch (status) {
	case MAIL_OK: return "ok";
	case MAIL_NOMEM: return "out of memory";
	case MAIL_READ_ERROR: return "the mail could not be read";
	case MAIL_TOO_BIG: return "the mail is too big";
	case MAIL_UNPARSABLE: return "the mail has no header";
	case MAIL_NO_FROM: return "the mail has no From header";
	case MAIL_TWO_FROM: return "the mail has more than one From header";
	case MAIL_BAD_FROM: return "the From header is not one plain address";
	case MAIL_UTF8_FROM:
		return "the sender's address has a non-ASCII local part (SMTPUTF8), which this server cannot "
		    "answer: write from an ASCII address";
	case MAIL_TOO_DEEP: return "the mail's MIME parts are nested too deeply";
	case MAIL_NO_PART: return "no such part";
	case MAIL_PART_TOO_BIG: return "the part is too big";
	case MAIL_NOT_A_REPORT: return "not a delivery report";
	case MAIL_AUTHRES_NO_ID: return "no authserv-id";
	case MAIL_AUTHRES_VERSION: return "a version other than 1";
	case MAIL_AUTHRES_SYNTAX: return "no result after the authserv-id";
	case MAIL_AUTHRES_TOO_LONG: return "too long";
	case MAIL_BAD_ADDRESS: return "bad address";
	case MAIL_BAD_ID: return "bad message id";
	case MAIL_BAD_BODY: return "the body is not UTF-8 text";
	case MAIL_BAD_DATE: return "the date is out of range";
	case MAIL_WRITE: return "the message could not be written";
	case MAIL_BAD_TEMPLATE: return "bad template";
	case MAIL_BAD_TEMPLATE_NAME: return "bad template name";
	case MAIL_NO_TEMPLATE: return "no such template";
	case MAIL_TEMPLATE_IO: return "template unreadable";
	case MAIL_TEMPLATE_TOO_BIG: return "template too big";
	case MAIL_TEMPLATE: return "template error";
	case MAIL_COMPOSE: return "the reply could not be composed";
	case MAIL_BAD_TOKEN: return "not a token of this server";
	case MAIL_TOKEN_TOO_LONG: return "the token would be too long";
	case MAIL_NO_SECRET: return "cannot read or make the secret file";
	}
	return "unknown mail status";
}
