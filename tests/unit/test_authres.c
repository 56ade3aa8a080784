/*
 * Unit tests for authres: Authentication-Results fields as RFC 8601's
 * appendix B, OpenDKIM, OpenDMARC, Gmail and Microsoft write them, the
 * edges of its grammar (comments, quotes, case, versions, caps), which
 * field of a mail is the trusted one, alignment and the verdict.
 */
#include "mail/authres.h"
#include "t.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct authres ar;

static enum mail_status parse(const char *s)
{
	return authres_parse(s, strlen(s), &ar);
}

/* The value of property name of result i, or NULL. */
static const char *prop(size_t i, const char *name)
{
	size_t k;

	if (i >= ar.nresults)
		return NULL;
	for (k = 0; k < ar.results[i].nprops; k++)
		if (strcmp(ar.results[i].props[k].name, name) == 0)
			return ar.results[i].props[k].value;
	return NULL;
}

static void test_rfc_examples(void)
{
	ok_int(parse(" example.org 1; none"), MAIL_OK, "RFC 8601 B.2: none, version 1");
	ok_str(ar.authserv_id, "example.org", "... its authserv-id");
	ok(ar.none && ar.nresults == 0, "... no result");

	ok_int(parse(" example.com;\r\n\t spf=pass smtp.mailfrom=example.net"), MAIL_OK, "B.3: spf, folded");
	ok_int((int)ar.nresults, 1, "... one result");
	ok_str(ar.results[0].method, "spf", "... method");
	ok_str(ar.results[0].result, "pass", "... result");
	ok_str(prop(0, "smtp.mailfrom"), "example.net", "... smtp.mailfrom");

	ok_int(parse(" example.com;\n   auth=pass (cram-md5) smtp.auth=sender@example.net;\n"
	    "   spf=pass smtp.mailfrom=example.net"), MAIL_OK, "B.4: two results");
	ok_int((int)ar.nresults, 2, "... both kept");
	ok_str(prop(0, "smtp.auth"), "sender@example.net", "... an address as a value");
	ok_str(ar.results[1].method, "spf", "... the second");

	ok_int(parse(" example.com;\n   dkim=pass (good signature) header.d=mail-router.example.net;\n"
	    "   dkim=fail (bad signature) header.d=newyork.example.com"), MAIL_OK, "B.5: two signatures");
	ok_str(prop(0, "header.d"), "mail-router.example.net", "... the first's domain");
	ok_str(ar.results[1].result, "fail", "... the second failed");
	ok_str(prop(1, "header.d"), "newyork.example.com", "... its domain");

	ok_int(parse(" example.com; iprev=pass policy.iprev=192.0.2.200"), MAIL_OK, "B.6: iprev");
	ok_str(prop(0, "policy.iprev"), "192.0.2.200", "... policy.iprev");
}

static void test_real_shapes(void)
{
	ok_int(parse(" mx.example.net; dmarc=pass (p=reject dis=none)\n\theader.from=example.org"), MAIL_OK,
	    "OpenDMARC's field");
	ok_str(ar.results[0].method, "dmarc", "... dmarc");
	ok_str(prop(0, "header.from"), "example.org", "... header.from after the comment");

	ok_int(parse(" mx.example.net;\n\tdkim=pass (2048-bit key; unprotected) header.d=example.org\n"
	    "\theader.i=@example.org header.a=rsa-sha256 header.s=mail header.b=Ab+Cd/Ef="),
	    MAIL_OK, "OpenDKIM's field: a ';' inside its comment");
	ok_int((int)ar.nresults, 1, "... one result, not split at the comment's ';'");
	ok_int((int)ar.results[0].nprops, 5, "... five properties");
	ok_str(prop(0, "header.i"), "@example.org", "... header.i");
	ok_str(prop(0, "header.b"), "Ab+Cd/Ef=", "... header.b with base64 bytes");

	ok_int(parse(" mx.google.com;\r\n       dkim=pass header.i=@gmail.com header.s=20230601 header.b=xYz;\r\n"
	    "       spf=pass (google.com: domain of a@gmail.com designates 209.85.220.41 as permitted sender) "
	    "smtp.mailfrom=a@gmail.com;\r\n       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com"),
	    MAIL_OK, "Gmail's field");
	ok_int((int)ar.nresults, 3, "... three results");
	ok_str(prop(2, "header.from"), "gmail.com", "... the dmarc's header.from");

	ok_int(parse(" spf=pass (sender IP is 192.0.2.1) smtp.mailfrom=example.org; dkim=none (message not "
	    "signed) header.d=none;dmarc=pass action=none header.from=example.org;compauth=pass reason=100"),
	    MAIL_AUTHRES_SYNTAX, "Microsoft's field without an authserv-id: its first word no id, no ';' after it");
	ok_int(parse(" mx.microsoft.com 1; spf=pass smtp.mailfrom=example.org; dkim=none (message not signed) "
	    "header.d=none;dmarc=pass action=none header.from=example.org;compauth=pass reason=100"),
	    MAIL_OK, "Microsoft's field with one");
	ok_int((int)ar.nresults, 4, "... four results");
	ok_int((int)ar.skipped, 0, "... none skipped");
	ok_str(prop(2, "header.from"), "example.org", "... action=none passed over");
	ok_int((int)ar.results[3].nprops, 0, "... reason=100 no property");
}

static void test_grammar_edges(void)
{
	ok_int(parse(" \"mx.example.net\" (our MX); DKIM = (a comment) PASS Header . D = Example.ORG"), MAIL_OK,
	    "quoted authserv-id, CFWS everywhere, upper case");
	ok_str(ar.authserv_id, "mx.example.net", "... the id unquoted");
	ok_str(ar.results[0].method, "dkim", "... method lower-cased");
	ok_str(ar.results[0].result, "pass", "... result lower-cased");
	ok_str(prop(0, "header.d"), "Example.ORG", "... the property name lower-cased, the value as written");

	ok_int(parse(" mx; dkim/1=pass header.d=example.org"), MAIL_OK, "a method version");
	ok_str(ar.results[0].method, "dkim", "... the method without it");

	ok_int(parse(" mx (a (nested; dkim=pass header.d=example.org) comment); dkim=fail header.d=example.org"),
	    MAIL_OK, "a nested comment with a ';' and a pass in it");
	ok_int((int)ar.nresults, 1, "... read as one result");
	ok_str(ar.results[0].result, "fail", "... the fail outside it");

	ok_int(parse(" mx; dkim=pass (a \\) quoted paren; dkim=pass) header.d=example.org"), MAIL_OK,
	    "a quoted-pair in a comment");
	ok_int((int)ar.nresults, 1, "... one result");
	ok_str(prop(0, "header.d"), "example.org", "... its property after the comment");

	ok_int(parse(" mx; dkim=pass header.b=\"a;b \\\"c\\\"\"; spf=pass smtp.mailfrom=\"a b\"@example.org"),
	    MAIL_OK, "quoted values with ';' and quoted-pairs");
	ok_int((int)ar.nresults, 2, "... two results");
	ok_str(prop(0, "header.b"), "a;b \"c\"", "... the quoted value unquoted");
	ok_str(prop(1, "smtp.mailfrom"), "a b@example.org", "... a quoted local part");

	ok_int(parse(" mx 1 ; dkim=pass header.d=example.org"), MAIL_OK, "version 1");
	ok_int(parse(" mx 2; dkim=pass header.d=example.org"), MAIL_AUTHRES_VERSION, "version 2: ignored");
	ok_str(ar.authserv_id, "mx", "... its id still read");
	ok_int(parse(" mx 10; none"), MAIL_AUTHRES_VERSION, "version 10");
	ok_int(parse(" mx 1x; none"), MAIL_AUTHRES_SYNTAX, "a version with a letter");

	ok_int(parse(""), MAIL_AUTHRES_NO_ID, "empty: no id");
	ok_int(parse("   (only a comment)  "), MAIL_AUTHRES_NO_ID, "a comment alone: no id");
	ok_int(parse(" (open comment mx; dkim=pass"), MAIL_AUTHRES_NO_ID, "an open comment before the id");
	ok_int(parse(" \"mx; dkim=pass"), MAIL_AUTHRES_NO_ID, "an open quote as the id");
	ok_int(parse(" ; dkim=pass"), MAIL_AUTHRES_NO_ID, "no id before ';'");
	ok_int(parse(" mx"), MAIL_AUTHRES_SYNTAX, "an id alone");
	ok_int(parse(" mx dkim=pass"), MAIL_AUTHRES_SYNTAX, "no ';' after the id");
	ok_int(parse(" mx;"), MAIL_OK, "a ';' alone: read, nothing in it");
	ok_int((int)ar.nresults, 0, "... no result");
	ok_int((int)ar.skipped, 1, "... one skipped");
	ok_int(parse(" mx; none; dkim=pass header.d=example.org"), MAIL_OK, "none then a result");
	ok(ar.none && ar.nresults == 0, "... none, the rest not read");

	ok_int(parse(" mx; dkim=pass (open comment header.d=example.org"), MAIL_OK, "an open comment in a result");
	ok_int((int)ar.nresults, 0, "... the result not kept");
	ok_int(parse(" mx; dkim=pass header.b=\"open header.d=example.org"), MAIL_OK, "an open quote");
	ok_int((int)ar.nresults, 0, "... the result not kept");
	ok_int(parse(" mx; this is not a result; dkim=pass header.d=example.org"), MAIL_OK,
	    "a broken result, then a good one");
	ok_int((int)ar.nresults, 1, "... the good one kept");
	ok_int((int)ar.skipped, 1, "... the broken one skipped");
	ok_str(prop(0, "header.d"), "example.org", "... whole");
	ok_int(parse(" mx; dkim=pass header.d; dmarc=fail header.from=example.org"), MAIL_OK,
	    "a property without a value");
	ok_int((int)ar.nresults, 1, "... that result skipped, the next kept");
	ok_str(ar.results[0].method, "dmarc", "... the dmarc");
	ok_int(parse(" mx; dkim=pass \"x\";dmarc=pass header.from=a \"b\" ; spf=pass"), MAIL_OK,
	    "skipping over quotes to the next result");
	ok_int((int)ar.nresults, 1, "... one result kept");
	ok_str(ar.results[0].method, "spf", "... the spf");
	ok_int(parse(" mx; d\x01kim=pass header.d=example.org"), MAIL_OK, "a control byte in a method");
	ok_int((int)ar.nresults, 0, "... not a result");
	{
		char nul[] = " mx; dkim=pass header.d=example.org\0evil.example; dmarc=fail";

		ok_int(authres_parse(nul, sizeof nul - 1, &ar), MAIL_OK, "a NUL inside a value");
		ok_str(prop(0, "header.d"), "example.org", "... ends the value there");
	}
}

static void test_caps(void)
{
	char buf[AUTHRES_FIELD_MAX + 100], *p;
	size_t i;

	p = buf;
	p += sprintf(p, " mx");
	for (i = 0; i < AUTHRES_RESULTS_MAX + 8; i++)
		p += sprintf(p, "; dkim=pass header.d=d%zu.example", i);
	ok_int(parse(buf), MAIL_OK, "%d results", AUTHRES_RESULTS_MAX + 8);
	ok_int((int)ar.nresults, AUTHRES_RESULTS_MAX, "... %d kept", AUTHRES_RESULTS_MAX);
	ok_int((int)ar.skipped, 8, "... 8 skipped");
	ok_str(prop(AUTHRES_RESULTS_MAX - 1, "header.d"), "d31.example", "... the last kept is whole");

	p = buf;
	p += sprintf(p, " mx; dkim=pass");
	for (i = 0; i < AUTHRES_PROPS_MAX + 3; i++)
		p += sprintf(p, " header.x%zu=v", i);
	p += sprintf(p, "; dmarc=pass header.from=example.org");
	ok_int(parse(buf), MAIL_OK, "%d properties", AUTHRES_PROPS_MAX + 3);
	ok_int((int)ar.results[0].nprops, AUTHRES_PROPS_MAX, "... %d kept", AUTHRES_PROPS_MAX);
	ok_int((int)ar.nresults, 2, "... the next result read");

	memset(buf, 'a', 400);
	memcpy(buf, " mx; dkim=pass header.d=", 24);
	strcpy(buf + 400, ".example.org");
	ok_int(parse(buf), MAIL_OK, "a 388-byte domain");
	ok(ar.results[0].props[0].cut, "... cut");
	ok_int((int)strlen(ar.results[0].props[0].value), AUTHRES_VALUE_MAX, "... at %d bytes", AUTHRES_VALUE_MAX);

	memset(buf, 'k', 100);
	memcpy(buf, " mx; ", 5);
	strcpy(buf + 100, "=pass");
	ok_int(parse(buf), MAIL_OK, "a 95-byte method");
	ok_int((int)ar.nresults, 0, "... not a result");

	memset(buf, 'i', 300);
	buf[0] = ' ';
	strcpy(buf + 300, "; none");
	ok_int(parse(buf), MAIL_AUTHRES_NO_ID, "a 299-byte authserv-id");

	memset(buf, ' ', sizeof buf);
	memcpy(buf, " mx; dkim=pass header.d=example.org", 35);
	buf[AUTHRES_FIELD_MAX + 1] = '\0';
	ok_int(parse(buf), MAIL_AUTHRES_TOO_LONG, "a field of %d bytes", AUTHRES_FIELD_MAX + 1);
	ok_str(ar.authserv_id, "mx", "... its id read");
	ok_int((int)ar.nresults, 0, "... nothing else");
	buf[AUTHRES_FIELD_MAX] = '\0';
	ok_int(parse(buf), MAIL_OK, "a field of %d bytes", AUTHRES_FIELD_MAX);
}

static enum mail_status find(const char *mail, const char *id, bool *found)
{
	return authres_find(mail, strlen(mail), id, &ar, found);
}

#define BODY "From: alice@example.org\nSubject: register alice pw\n\nAuthentication-Results: mx.example.net; " \
	"dmarc=pass header.from=example.org\n"

static void test_find(void)
{
	bool found;

	ok_int(find(BODY, "mx.example.net", &found), MAIL_OK, "no field in the header");
	ok(!found, "... none found: the body's line is not a field");

	ok_int(find("Received: by mx.example.net\nAuthentication-Results: mx.example.net; dmarc=none\n"
	    "\theader.from=example.org\nAuthentication-Results: mx.example.net; dmarc=pass header.from=example.org\n"
	    BODY, "mx.example.net", &found), MAIL_OK, "a forged field below the trusted one");
	ok(found, "... found");
	ok_str(ar.results[0].result, "none", "... the topmost read");
	ok_str(prop(0, "header.from"), "example.org", "... across its folded line");

	ok_int(find("Authentication-Results: mx.evil.example; dmarc=pass header.from=example.org\n"
	    "authentication-results : MX.EXAMPLE.NET; dmarc=fail header.from=example.org\n" BODY,
	    "mx.example.net", &found), MAIL_OK, "another authserv-id above, the trusted one in other case");
	ok(found, "... found");
	ok_str(ar.results[0].result, "fail", "... the trusted one");

	ok_int(find("Authentication-Results: mx.evil.example; dmarc=pass header.from=example.org\n" BODY,
	    "mx.example.net", &found), MAIL_OK, "only another authserv-id");
	ok(!found, "... none found");

	ok_int(find("From sender@example.org Tue Nov 14 23:13:20 2023\r\nAuthentication-Results: (a comment)\r\n"
	    "Authentication-Results: mx.example.net;\r\n dkim=pass header.d=example.org\r\n\r\nbody\r\n",
	    "mx.example.net", &found), MAIL_OK, "mbox From line, CRLF, a field with no id above");
	ok(found, "... found");
	ok_str(prop(0, "header.d"), "example.org", "... read whole");

	ok_int(find("Authentication-Results: mx.example.net 2; dmarc=pass header.from=example.org\n"
	    "Authentication-Results: mx.example.net; dmarc=pass header.from=example.org\n" BODY,
	    "mx.example.net", &found), MAIL_AUTHRES_VERSION, "the topmost trusted field of version 2");
	ok(found, "... found: the one below is not read instead");

	ok_int(find("Subject: x\nnot a field\nAuthentication-Results: mx.example.net; dmarc=pass\n\n",
	    "mx.example.net", &found), MAIL_OK, "a line that is no field ends the header");
	ok(!found, "... nothing found after it");

	ok_int(find("Authentication-Results: mx.example.net; dmarc=pass header.from=example.org", "mx.example.net",
	    &found), MAIL_OK, "a header with no line end at all");
	ok(found, "... found");
	ok_int(find("", "mx.example.net", &found), MAIL_OK, "an empty mail");
	ok(!found, "... nothing");
	ok_int(find("\n\n", "mx.example.net", &found), MAIL_OK, "an empty header");
	ok(!found, "... nothing");
}

static void test_aligned(void)
{
	ok(authres_aligned("example.org", "example.org"), "the same domain");
	ok(authres_aligned("Example.ORG.", "example.org"), "case and a final dot");
	ok(authres_aligned("example.org", "mail.example.org"), "a parent of the From domain");
	ok(!authres_aligned("mail.example.org", "example.org"), "a subdomain of the From domain: not taken");
	ok(!authres_aligned("org", "example.org"), "a top-level domain");
	ok(!authres_aligned("ample.org", "example.org"), "a suffix that is no parent");
	ok(!authres_aligned("evil.example", "example.org"), "another domain");
	ok(!authres_aligned("", "example.org"), "empty");
	ok(!authres_aligned(".", "example.org"), "a dot");
	ok(!authres_aligned(".org", "example.org"), "a leading dot");
	ok(!authres_aligned("example.org", ""), "no From domain");
}

static enum authres_verdict judge(const char *field, const char *from, char *why)
{
	if (parse(field) != MAIL_OK)
		return AUTHRES_UNREADABLE;
	return authres_judge(&ar, from, why);
}

static void test_judge(void)
{
	char why[AUTHRES_WHY_MAX];

	ok_int(judge(" mx; dmarc=pass header.from=example.org", "example.org", why), AUTHRES_PASS, "dmarc=pass");
	ok_str(why, "dmarc=pass header.from=example.org", "... why");
	ok_int(judge(" mx; dmarc=pass header.from=EXAMPLE.org.", "example.org", why), AUTHRES_PASS,
	    "dmarc=pass, the domain in other case");
	ok_int(judge(" mx; dmarc=pass", "example.org", why), AUTHRES_PASS, "dmarc=pass without header.from");
	ok_int(judge(" mx; dmarc=pass header.from=evil.example", "example.org", why), AUTHRES_NO_PASS,
	    "dmarc=pass for another domain");
	ok_str(why, "dmarc=pass header.from=evil.example (another domain)", "... why");
	ok_int(judge(" mx; dmarc=fail header.from=example.org", "example.org", why), AUTHRES_DMARC_FAIL,
	    "dmarc=fail");
	ok_str(why, "dmarc=fail header.from=example.org", "... why");
	ok_int(judge(" mx; dmarc=fail", "example.org", why), AUTHRES_DMARC_FAIL, "dmarc=fail without header.from");
	ok_int(judge(" mx; dmarc=fail header.from=evil.example", "example.org", why), AUTHRES_NO_PASS,
	    "dmarc=fail for another domain");
	ok_int(judge(" mx; dkim=pass header.d=example.org; dmarc=fail header.from=example.org", "example.org", why),
	    AUTHRES_DMARC_FAIL, "a fail wins over an aligned pass");
	ok_int(judge(" mx; dmarc=none header.from=example.org; dkim=pass header.d=example.org", "example.org", why),
	    AUTHRES_PASS, "dkim=pass aligned, dmarc=none");
	ok_str(why, "dkim=pass header.d=example.org", "... why");
	ok_int(judge(" mx; dkim=pass header.i=@example.org", "example.org", why), AUTHRES_PASS,
	    "dkim=pass, header.i alone");
	ok_str(why, "dkim=pass header.i=example.org", "... why");
	ok_int(judge(" mx; dkim=pass header.d=example.org", "mail.example.org", why), AUTHRES_PASS,
	    "dkim=pass by the parent domain");
	ok_int(judge(" mx; dkim=pass header.d=mailer.example.com", "example.org", why), AUTHRES_NO_PASS,
	    "dkim=pass not aligned");
	ok_str(why, "dkim=pass header.d=mailer.example.com (not aligned with the From domain)", "... why");
	ok_int(judge(" mx; dkim=pass", "example.org", why), AUTHRES_NO_PASS, "dkim=pass naming no domain");
	ok_int(judge(" mx; dkim=fail header.d=example.org", "example.org", why), AUTHRES_NO_PASS, "dkim=fail");
	ok_int(judge(" mx; dkim=neutral header.d=example.org; dmarc=temperror", "example.org", why),
	    AUTHRES_NO_PASS, "neutral, temperror");
	ok_int(judge(" mx; spf=pass smtp.mailfrom=example.org", "example.org", why), AUTHRES_NO_PASS,
	    "spf=pass alone");
	ok_str(why, "no dmarc or dkim result", "... why");
	ok_int(judge(" mx; none", "example.org", why), AUTHRES_NO_PASS, "none");
	ok_str(why, "none", "... why");
	{
		char field[600];

		memset(field, 0, sizeof field);
		strcpy(field, " mx; dkim=pass header.d=");
		memset(field + strlen(field), 'e', 300);
		strcat(field, ".org");
		ok_int(judge(field, "example.org", why), AUTHRES_NO_PASS, "a cut header.d");
		memset(field, 0, sizeof field);
		strcpy(field, " mx; dmarc=pass header.from=");
		memset(field + strlen(field), 'e', 300);
		ok_int(judge(field, "example.org", why), AUTHRES_NO_PASS, "a cut header.from: another domain");
	}
	ok_int(judge(" mx; dkim=pass header.d=\"ex\x01" "ample\\\"org\"", "example.org", why), AUTHRES_NO_PASS,
	    "a control byte and a quote in a value");
	ok_str(why, "dkim=pass header.d=ex?ample?org (not aligned with the From domain)", "... shown as '?'");
}

static void test_check(void)
{
	struct authres *work = malloc(sizeof *work);
	char why[AUTHRES_WHY_MAX];
	const char *m;

	if (work == NULL)
		return;
	m = "Authentication-Results: mx.example.net; dmarc=pass header.from=example.org\n" BODY;
	ok_int(authres_check(m, strlen(m), "mx.example.net", "alice@example.org", work, why), AUTHRES_PASS,
	    "check: pass");
	ok_int(authres_check(m, strlen(m), "mx.other.example", "alice@example.org", work, why), AUTHRES_NO_HEADER,
	    "check: another server trusted");
	ok_str(why, "no Authentication-Results header from mx.other.example", "... why");
	ok_int(authres_check(m, strlen(m), "mx.example.net", "alice@evil.example", work, why), AUTHRES_NO_PASS,
	    "check: another From domain");
	m = "Authentication-Results: mx.example.net 2; dmarc=fail header.from=example.org\n" BODY;
	ok_int(authres_check(m, strlen(m), "mx.example.net", "alice@example.org", work, why), AUTHRES_UNREADABLE,
	    "check: version 2");
	ok_str(why, "the Authentication-Results header from mx.example.net cannot be read: a version other than 1",
	    "... why");
	m = "Authentication-Results: mx.example.net; dmarc=fail header.from=example.org\n" BODY;
	ok_int(authres_check(m, strlen(m), "mx.example.net", "alice@example.org", work, why), AUTHRES_DMARC_FAIL,
	    "check: fail");
	ok_int(authres_check(m, strlen(m), "mx.example.net", "no-at-sign", work, why), AUTHRES_NO_PASS,
	    "check: an address without a domain");
	free(work);
}

int main(void)
{
	test_rfc_examples();
	test_real_shapes();
	test_grammar_edges();
	test_caps();
	test_find();
	test_aligned();
	test_judge();
	test_check();
	return t_done();
}
