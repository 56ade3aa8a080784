/*
 * Unit tests for dsn: delivery status notifications as Postfix, Exim, Gmail
 * and Microsoft send them (the golden cases' mails), and the edges of RFC
 * 3464: delayed and 4.x.x are no bounce, the address forms, encodings,
 * several recipients, the cap, mails that are no report.
 */
#include "mail/dsn.h"
#include "t.h"
#include "t_home.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct dsn d;

/* The mail tests/golden/<name>/in.eml, parsed. */
static enum mail_status parse_file(const char *name)
{
	char rel[512];
	size_t len;
	char *buf;
	enum mail_status st;

	snprintf(rel, sizeof rel, "%s/in.eml", name);
	buf = t_load("tests/golden", rel, &len);
	st = dsn_parse(buf, len, &d);

	free(buf);
	return st;
}

static enum mail_status parse_str(const char *s)
{
	return dsn_parse(s, strlen(s), &d);
}

#define HEAD "From: MAILER-DAEMON@mx.example.net\nTo: oust@example.net\nSubject: report\n" \
	"MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\n\n"
#define TEXT "--B\nContent-Type: text/plain\n\nThe mail system.\n\n"
#define HEADERS "--B\nContent-Type: text/rfc822-headers\n\nFrom: oust@example.net\n" \
	"Message-ID: <1700000060.5f3e2a1b.alice@example.net>\n\n--B--\n"
#define STATUS(fields) "--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.net\n\n" \
	fields "\n"

static void test_real_shapes(void)
{
	static const struct {
		const char *name, *addr, *status, *id;
	} cases[] = {
		/* the ids our mails to those addresses carry, with their macs (mail/idmac.h, tests/tools/idmac.py) */
		{ "dsn-postfix-user-unknown", "alice@example.org", "5.1.1",
		  "oust.1700000060.5f3e2a1b.1.7dbebb4327f778f7@example.net" },
		{ "dsn-gmail", "alice.liddell@gmail.com", "5.1.1", "oust.1700000060.5f3e2a1b.1.9d3bd28da8b15c50@example.net" },
		{ "dsn-exchange", "alice@contoso.com", "5.1.10", "oust.1700000060.5f3e2a1b.1.a5f26c3802ab7471@example.net" },
		{ "dsn-exim", "alice@example.org", "5.0.0", "oust.1700000060.5f3e2a1b.1.7dbebb4327f778f7@example.net" },
		{ "dsn-exim-plain-text", "alice@example.org", "5.0.0",
		  "oust.1700000060.5f3e2a1b.1.7dbebb4327f778f7@example.net" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ok_int(parse_file(cases[i].name), MAIL_OK, "%s: a report", cases[i].name);
		ok_int((int)d.n, 1, "%s: one recipient", cases[i].name);
		ok_str(d.rcpt[0].addr, cases[i].addr, "%s: its address", cases[i].name);
		ok_int(d.rcpt[0].action, DSN_FAILED, "%s: failed", cases[i].name);
		ok_str(d.rcpt[0].status, cases[i].status, "%s: its status", cases[i].name);
		ok_str(d.orig_id, cases[i].id, "%s: the Message-ID of our mail",
		    cases[i].name);
		ok_int((int)dsn_failed_count(&d), 1, "%s: one bounce", cases[i].name);
	}
	ok_int(parse_file("dsn-delayed-not-a-bounce"), MAIL_OK, "postfix delay warning: a report");
	ok_int(d.rcpt[0].action, DSN_DELAYED, "... Action: delayed");
	ok_str(d.rcpt[0].status, "4.4.1", "... its status");
	ok_int((int)dsn_failed_count(&d), 0, "... no bounce");
	ok_int(parse_file("dsn-not-ours-backscatter"), MAIL_OK, "backscatter: a report");
	ok_str(d.orig_id, "4b8e9f.20231114@spammer.example.com", "... naming the forged mail");
	ok_int(parse_file("dropped-delivery-report"), MAIL_NOT_A_REPORT, "multipart/report without a status part");
	ok_int(parse_file("help"), MAIL_NOT_A_REPORT, "a plain mail is no report");
}

static void test_fields(void)
{
	ok_int(parse_str(HEAD TEXT STATUS("Final-Recipient: RFC822; <Bob@Example.COM>\nAction: Failed\n"
	    "Status: 5.2.2 (mailbox full)\n") HEADERS), MAIL_OK, "upper case, brackets, a comment");
	ok_str(d.rcpt[0].addr, "Bob@Example.COM", "... the address without brackets");
	ok_str(d.rcpt[0].status, "5.2.2", "... the status without its comment");
	ok_int(d.rcpt[0].action, DSN_FAILED, "... failed");

	ok_int(parse_str(HEAD STATUS("final-recipient: rfc822;a@example.org\naction: failed\nstatus: 4.4.7\n") HEADERS),
	    MAIL_OK, "failed with a 4.x.x status");
	ok_int(d.rcpt[0].action, DSN_DELAYED, "... is no bounce");

	ok_int(parse_str(HEAD STATUS("Final-Recipient: rfc822; a@example.org\nAction: delivered\nStatus: 2.0.0\n")
	    HEADERS), MAIL_OK, "a delivery notice");
	ok_int(d.rcpt[0].action, DSN_OTHER, "... is no bounce");
	ok_int((int)dsn_failed_count(&d), 0, "... none failed");

	ok_int(parse_str(HEAD STATUS("Original-Recipient: rfc822;orig@example.org\nAction: failed\nStatus: 5.1.1\n")
	    HEADERS), MAIL_OK, "only Original-Recipient");
	ok_str(d.rcpt[0].addr, "orig@example.org", "... taken");

	ok_int(parse_str(HEAD STATUS("Final-Recipient: x-unix; alice\nAction: failed\nStatus: 5.1.1\n") HEADERS),
	    MAIL_OK, "an address type other than rfc822");
	ok_int((int)d.n, 0, "... no recipient");

	ok_int(parse_str(HEAD STATUS("Final-Recipient: rfc822; a b@example.org\nAction: failed\nStatus: 5.1.1\n")
	    HEADERS), MAIL_OK, "an address with a space");
	ok_int((int)d.n, 0, "... not taken (cut at the space, 'a' is no address)");

	ok_int(parse_str(HEAD STATUS("Final-Recipient: rfc822; a@example.org\nAction: failed\nStatus: 5.1.1\n\n"
	    "Final-Recipient: rfc822; b@example.org\nAction: delayed\nStatus: 4.4.1\n\n"
	    "Final-Recipient: rfc822;\n c@example.org\nAction: failed\nStatus: 5.0.0\n") HEADERS), MAIL_OK,
	    "three recipients, one folded");
	ok_int((int)d.n, 3, "... all three");
	ok_str(d.rcpt[2].addr, "c@example.org", "... the folded one unfolded");
	ok_int((int)dsn_failed_count(&d), 2, "... two failed");

	ok_int(parse_str(HEAD "--B\nContent-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n"
	    "UmVwb3J0aW5nLU1UQTogZG5zOyBteAoKRmluYWwtUmVjaXBpZW50OiByZmM4MjI7IGJAZXhhbXBs\n"
	    "ZS5vcmcKQWN0aW9uOiBmYWlsZWQKU3RhdHVzOiA1LjEuMQo=\n" HEADERS), MAIL_OK, "a base64 status part");
	ok_str(d.rcpt[0].addr, "b@example.org", "... decoded");
	ok_int(d.rcpt[0].action, DSN_FAILED, "... failed");
}

static void test_shapes(void)
{
	char *big;
	size_t i, n = 0;

	ok_int(parse_str(HEAD STATUS("Final-Recipient: rfc822; a@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n")
	    HEADERS), MAIL_OK, "CRLF line ends");
	ok_str(d.rcpt[0].status, "5.1.1", "... read");

	ok_int(parse_str(HEAD STATUS("Final-Recipient: rfc822; a@example.org\nAction: failed\nStatus: 5.1.1\n")
	    "--B\nContent-Type: message/rfc822\n\nFrom: oust@example.net\nMessage-ID: <9.ab.x@example.net>\n\nhi\n"
	    "--B--\n"), MAIL_OK, "the original as message/rfc822");
	ok_str(d.orig_id, "9.ab.x@example.net", "... its Message-ID");

	ok_int(parse_str(HEAD STATUS("Final-Recipient: rfc822; a@example.org\nAction: failed\nStatus: 5.1.1\n") "--B--\n"),
	    MAIL_OK, "no original");
	ok_str(d.orig_id, "", "... no Message-ID");

	ok_int(parse_str("From: x@example.org\nSubject: hi\nX-Failed-Recipients: a@example.org, not an address, "
	    "b@example.org\n\nbody\nMessage-ID: <1.a.b@example.net>\n"), MAIL_OK, "X-Failed-Recipients alone");
	ok_int((int)d.n, 2, "... the words that are addresses: a and b");
	ok_str(d.rcpt[1].addr, "b@example.org", "... in order");
	ok_str(d.orig_id, "1.a.b@example.net", "... the Message-ID from the copy in the body");

	ok_int(parse_str(""), MAIL_NOT_A_REPORT, "an empty mail");
	ok_int(parse_str("not a mail at all"), MAIL_NOT_A_REPORT, "no header");

	/* more recipients than kept */
	big = malloc(200000);
	if (big == NULL)
		return;
	n = (size_t)snprintf(big, 200000, HEAD "--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; x\n");
	for (i = 0; i < DSN_RECIPIENTS_MAX + 10; i++)
		n += (size_t)snprintf(big + n, 200000 - n, "\nFinal-Recipient: rfc822; u%zu@example.org\nAction: failed\n"
		    "Status: 5.1.1\n", i);
	n += (size_t)snprintf(big + n, 200000 - n, "--B--\n");
	ok_int(dsn_parse(big, n, &d), MAIL_OK, "%d recipients", DSN_RECIPIENTS_MAX + 10);
	ok_int((int)d.n, DSN_RECIPIENTS_MAX, "... the first DSN_RECIPIENTS_MAX kept");
	free(big);
}

int main(void)
{
	test_real_shapes();
	test_fields();
	test_shapes();
	return t_done();
}
