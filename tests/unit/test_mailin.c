/* Unit tests for mailin: reading stdin with a cap, parsing real-world mail shapes. */
#include "mail/mailin.h"
#include "t.h"
#include "t_home.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static enum mail_status parse_file(const char *name, struct mailin_message *m)
{
	size_t len;
	char *buf = t_load("tests/data/mail", name, &len);
	enum mail_status st = mailin_parse(buf, len, m);

	free(buf);
	return st;
}

static enum mail_status parse_str(const char *s, struct mailin_message *m)
{
	return mailin_parse(s, strlen(s), m);
}

/* No CR, LF or other control character in a header value. */
static int one_line(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* A mail nested n multiparts below its top multipart, with the text part innermost. */
static char *nested(int n, size_t *len)
{
	size_t size = 200 + (size_t)n * 120, used = 0;
	char *s = malloc(size);
	int i;

	used += (size_t)sprintf(s + used, "From: deep@example.com\nSubject: help\nMIME-Version: 1.0\n"
	    "Content-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 0; i < n; i++)
		used += (size_t)sprintf(s + used, "--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n", i, i + 1);
	used += (size_t)sprintf(s + used, "--b%d\nContent-Type: text/plain\n\ninnermost\n", n);
	for (i = n; i >= 0; i--)
		used += (size_t)sprintf(s + used, "--b%d--\n", i);
	*len = used;
	return s;
}

static void test_shapes(void)
{
	struct mailin_message m;
	enum mail_status st;

	st = parse_file("plain.eml", &m);
	ok_int(st, MAIL_OK, "plain: parses");
	ok_str(m.from_addr, "alice@example.org", "plain: addr-spec, domain lower-cased");
	ok_str(m.from_name, "Alice Liddell", "plain: display name");
	ok_str(m.subject, "move 101 alice secret E5", "plain: subject");
	ok_str(m.message_id, "plain.1@example.org", "plain: message id without brackets");
	ok_str(m.date, "Tue, 14 Nov 2023 22:13:20 +0000", "plain: date text");
	ok_int(m.date_time, 1700000000, "plain: date as a time");
	ok_str(m.body, "Your turn, Bob.\n\n-- \nAlice\n", "plain: body");
	ok_int(m.body_len, strlen(m.body), "plain: body_len");
	ok(!m.automatic && strcmp(m.automatic_reason, "") == 0, "plain: not automatic");
	ok_str(m.in_reply_to, "", "plain: no In-Reply-To is \"\"");
	ok_str(m.references, "", "plain: no References is \"\"");
	mailin_message_release(&m);
	ok(m.from_addr == NULL && m.body == NULL && m.date_time == -1, "release zeroes the struct");

	st = parse_file("body-command.eml", &m);
	ok_int(st, MAIL_OK, "body-command: parses");
	ok_str(m.in_reply_to, "srv.7@example.net", "body-command: In-Reply-To id");
	ok_str(m.references, "root.101@example.net srv.7@example.net", "body-command: References ids");
	ok_str(m.from_name, "", "body-command: no display name is \"\"");
	ok_int(m.date_time, -1, "body-command: no Date is -1");
	ok_str(m.body, "move 101#2 bob hunter2 F6, G7\nNice capture.\n", "body-command: body");
	mailin_message_release(&m);

	st = parse_file("alternative.eml", &m);
	ok_int(st, MAIL_OK, "multipart/alternative: parses");
	ok_str(m.body, "show 101", "multipart/alternative: the text/plain part, not the html");
	ok_str(m.subject, "", "multipart/alternative: empty subject");
	mailin_message_release(&m);

	st = parse_file("html-first-nested.eml", &m);
	ok_int(st, MAIL_OK, "nested alternative: parses");
	ok_str(m.body, "history 102", "nested alternative: html first, text found deeper, attachment skipped");
	mailin_message_release(&m);

	st = parse_file("qp-latin1.eml", &m);
	ok_int(st, MAIL_OK, "quoted-printable latin1: parses");
	ok_str(m.body, "help\nCaf\xc3\xa9 cr\xc3\xa8me \xc3\xa0 la \xe2\x80\x9c" "fran\xc3\xa7" "aise\xe2\x80\x9d\n",
	    "quoted-printable latin1: decoded to UTF-8 (cp1252 quotes too)");
	ok_str(m.from_name, "Ren\xc3\xa9" "e Fran\xc3\xa7ois", "encoded-word display name decoded");
	ok_str(m.subject, "Re: Caf\xc3\xa9", "encoded-word subject decoded");
	mailin_message_release(&m);

	st = parse_file("base64-utf8.eml", &m);
	ok_int(st, MAIL_OK, "base64: parses");
	ok_str(m.body, "games erin\nGr\xc3\xbc\xc3\x9f" "e aus K\xc3\xb6ln \xe2\x9c\x93\n", "base64: decoded");
	ok_str(m.subject, "Gr\xc3\xbc\xc3\x9f" "e", "base64 encoded-word subject");
	mailin_message_release(&m);

	st = parse_file("mbox-from-line.eml", &m);
	ok_int(st, MAIL_OK, "leading From line: parses");
	ok_str(m.from_addr, "frank@example.com", "leading From line: From header used");
	ok_str(m.subject, "help", "leading From line: subject");
	mailin_message_release(&m);

	st = parse_file("crlf.eml", &m);
	ok_int(st, MAIL_OK, "CRLF: parses");
	ok_str(m.subject, "Re: Oust Board 103 grace", "CRLF: subject without CR");
	ok_str(m.body, "resign 103 grace pw\nSorry, I have to go.\n", "CRLF: body with LF only");
	ok_str(m.from_name, "Grace", "CRLF: name without CR");
	mailin_message_release(&m);

	st = parse_file("reply-quoting-board.eml", &m);
	ok_int(st, MAIL_OK, "reply quoting a board: parses");
	ok_str(m.references, "root.104@example.net srv.11@example.net srv.12@example.net",
	    "reply quoting a board: References");
	ok(strstr(m.body, "> Oust Board 104 heidi\n") != NULL, "reply quoting a board: quote kept in body");
	mailin_message_release(&m);

	st = parse_file("raw-8bit-subject.eml", &m);
	ok_int(st, MAIL_OK, "raw 8-bit subject: parses");
	ok_str(m.subject, "caf\xc3\xa9 help", "raw 8-bit subject read as windows-1252");
	mailin_message_release(&m);

	st = parse_file("forwarded-only.eml", &m);
	ok_int(st, MAIL_OK, "forwarded message/rfc822 only: parses");
	ok_str(m.body, "", "forwarded message/rfc822: its text is not the sender's body");
	mailin_message_release(&m);
}

static void test_hostile(void)
{
	struct mailin_message m;
	enum mail_status st;
	char *buf;
	size_t len;

	st = parse_file("subject-injection.eml", &m);
	ok_int(st, MAIL_OK, "encoded CR/LF in subject: parses");
	ok_str(m.subject, "move 101 mallory pw E5 Bcc: victim@example.org", "encoded CR/LF in subject become spaces");
	ok(one_line(m.subject), "subject has no control character");
	mailin_message_release(&m);

	st = parse_file("from-crlf.eml", &m);
	ok_int(st, MAIL_OK, "encoded CR/LF in From name: parses");
	ok_str(m.from_name, "Eve Bcc: victim@example.org", "From name: CR/LF become spaces");
	ok_str(m.from_addr, "eve@example.com", "From name with CR/LF: address intact");
	mailin_message_release(&m);

	st = parse_file("from-group.eml", &m);
	ok_int(st, MAIL_BAD_FROM, "From parsed as a group: MAIL_BAD_FROM");
	ok_str(m.from_addr, "", "bad From: from_addr is \"\"");
	ok_str(m.subject, "help", "bad From: other fields still filled");
	mailin_message_release(&m);

	st = parse_file("two-from.eml", &m);
	ok_int(st, MAIL_TWO_FROM, "two From headers: MAIL_TWO_FROM");
	ok_str(m.from_addr, "", "two From headers: no address chosen");
	mailin_message_release(&m);

	st = parse_file("from-unparsable.eml", &m);
	ok_int(st, MAIL_BAD_FROM, "unparsable From: MAIL_BAD_FROM");
	mailin_message_release(&m);

	st = parse_file("no-from.eml", &m);
	ok_int(st, MAIL_NO_FROM, "no From: MAIL_NO_FROM");
	mailin_message_release(&m);

	st = parse_str("From: alice@example.org, bob@example.org\nSubject: x\n\nx\n", &m);
	ok_int(st, MAIL_BAD_FROM, "From with two addresses: MAIL_BAD_FROM");
	mailin_message_release(&m);

	st = parse_str("From: Alice <alice@[192.0.2.1]>\nSubject: x\n\nx\n", &m);
	ok_int(st, MAIL_BAD_FROM, "From with an address literal: MAIL_BAD_FROM");
	mailin_message_release(&m);

	st = parse_file("nul-bytes.eml", &m);
	ok_int(st, MAIL_OK, "NUL bytes: parses");
	ok_str(m.from_addr, "ivan@example.com", "NUL in From dropped");
	ok_str(m.from_name, "Ivan", "NUL in the display name dropped");
	ok_str(m.subject, "sh\xef\xb7\x90ow 101", "NUL in Subject kept as UTF8_NUL_MARK, for the command check");
	ok_str(m.body, "show\xef\xb7\x90 1\xef\xb7\x90" "01\a\x1b[31m\nbye\x7f\n",
	    "NUL, BEL, ESC, DEL kept in the body, for the command check");
	mailin_message_release(&m);

	st = parse_file("invalid-utf8.eml", &m);
	ok_int(st, MAIL_OK, "invalid UTF-8: parses");
	ok_str(m.body, "ok \xef\xbf\xbd\xef\xbf\xbd end\nover\xef\xbf\xbd\xef\xbf\xbdlong "
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd surrogate \xef\xbf\xbd\xef\xbf\xbd\n",
	    "invalid UTF-8: each bad byte becomes U+FFFD");
	mailin_message_release(&m);

	st = parse_file("unknown-charset.eml", &m);
	ok_int(st, MAIL_OK, "unknown charset: parses");
	ok_str(m.body, "Qapla\xc3\xa9 \xe2\x80\x9cquoted\xe2\x80\x9d\n", "unknown charset, not UTF-8: read as windows-1252");
	mailin_message_release(&m);

	st = parse_str("From: a@example.org\nSubject: x\nContent-Type: text/plain; charset=x-unknown\n\n"
	    "caf\xc3\xa9\n", &m);
	ok_str(m.body, "caf\xc3\xa9\n", "unknown charset, valid UTF-8: kept");
	mailin_message_release(&m);

	st = parse_str("From: a@example.org\nSubject: x\nContent-Type: text/plain; charset=iso-8859-7\n"
	    "Content-Transfer-Encoding: 8bit\n\n\xe1\xe2\xe3\n", &m);
	ok_str(m.body, "\xce\xb1\xce\xb2\xce\xb3\n", "iso-8859-7 converted with iconv");
	mailin_message_release(&m);

	st = parse_str("From: a@example.org\nSubject: x\nContent-Type: text/plain; charset=shift_jis\n"
	    "Content-Transfer-Encoding: 8bit\n\nA\x82\n", &m);
	ok_str(m.body, "A\xef\xbf\xbd\n", "a byte iconv cannot convert becomes U+FFFD");
	mailin_message_release(&m);

	st = parse_str("From: a@example.org\nSubject: x\nContent-Type: text/plain; charset=utf-8\n"
	    "Content-Transfer-Encoding: base64\n\nbGluZTENCmxpbmUyDWxpbmUzCg==\n", &m);
	ok_str(m.body, "line1\nline2\nline3\n", "CRLF and lone CR inside a base64 body become LF");
	mailin_message_release(&m);

	buf = nested(1000, &len);
	st = mailin_parse(buf, len, &m);
	ok_int(st, MAIL_TOO_DEEP, "1000-deep nesting: refused with MAIL_TOO_DEEP");
	ok_str(m.from_addr, "deep@example.com", "1000-deep nesting: From still known, to answer");
	ok_str(m.body, "", "1000-deep nesting: no body");
	mailin_message_release(&m);
	free(buf);

	buf = nested(MAILIN_MAX_DEPTH - 1, &len);
	st = mailin_parse(buf, len, &m);
	ok_int(st, MAIL_OK, "text part at depth %d: found", MAILIN_MAX_DEPTH);
	ok_str(m.body, "innermost", "text part at the depth limit: body");
	mailin_message_release(&m);
	free(buf);

	buf = nested(MAILIN_MAX_DEPTH, &len);
	st = mailin_parse(buf, len, &m);
	ok_int(st, MAIL_TOO_DEEP, "text part at depth %d: MAIL_TOO_DEEP", MAILIN_MAX_DEPTH + 1);
	mailin_message_release(&m);
	free(buf);

	st = mailin_parse("", 0, &m);
	ok_int(st, MAIL_UNPARSABLE, "empty input: MAIL_UNPARSABLE");
	mailin_message_release(&m);

	st = mailin_parse("\0\1\2 binary junk", 15, &m);
	ok_int(st, MAIL_UNPARSABLE, "binary junk: MAIL_UNPARSABLE");
	mailin_message_release(&m);

	st = parse_file("no-headers.eml", &m);
	ok_int(st, MAIL_UNPARSABLE, "text without headers: MAIL_UNPARSABLE");
	mailin_message_release(&m);

	st = parse_str("From alice@example.org Tue Nov 14 22:13:20 2023", &m);
	ok_int(st, MAIL_UNPARSABLE, "only an mbox From line: MAIL_UNPARSABLE");
	mailin_message_release(&m);
}

static void test_ids(void)
{
	struct mailin_message m;
	char big[20000], *p;
	int i;

	parse_str("From: a@example.org\nSubject: x\nMessage-ID: <we\"ird <id>@ex ample.org>\n\nx\n", &m);
	ok(strchr(m.message_id, '<') == NULL && strchr(m.message_id, ' ') == NULL &&
	    strchr(m.message_id, '"') == NULL, "message id cleaned: '%s'", m.message_id);
	mailin_message_release(&m);

	p = big + sprintf(big, "From: a@example.org\nSubject: x\nReferences:");
	for (i = 1; i <= 30; i++)
		p += sprintf(p, " <r%d@example.org>", i);
	sprintf(p, "\nIn-Reply-To: <r30@example.org> <other@example.org>\n\nx\n");
	parse_str(big, &m);
	ok(strncmp(m.references, "r11@example.org ", 16) == 0 && strstr(m.references, " r30@example.org") != NULL &&
	    strstr(m.references, "r10@") == NULL,
	    "References: the last %d ids kept", MAILIN_REFERENCES_MAX);
	ok_str(m.in_reply_to, "r30@example.org", "In-Reply-To: the first id");
	mailin_message_release(&m);

	p = big + sprintf(big, "From: a@example.org\nSubject: ");
	for (i = 0; i < MAILIN_SUBJECT_MAX + 100; i++)
		*p++ = 'x';
	sprintf(p, "\n\nx\n");
	parse_str(big, &m);
	ok_int(strlen(m.subject), MAILIN_SUBJECT_MAX, "subject cut at MAILIN_SUBJECT_MAX bytes");
	mailin_message_release(&m);

	parse_str("From: a@example.org\nSubject: x\nDate: not a date at all\n\nx\n", &m);
	ok_int(m.date_time, -1, "unreadable Date: -1");
	ok_str(m.date, "not a date at all", "unreadable Date: text kept");
	mailin_message_release(&m);
}

static void test_automatic(void)
{
	static const struct {
		const char *file, *reason;
	} cases[] = {
		{ "auto-submitted.eml", "Auto-Submitted: auto-replied" },
		{ "precedence-bulk.eml", "Precedence: bulk" },
		{ "precedence-junk.eml", "Precedence: junk" },
		{ "precedence-list.eml", "Precedence: list" },
		{ "list-id.eml", "List-Id: Oust players <players.lists.example.org>" },
		{ "return-path-empty.eml", "empty Return-Path (a bounce)" },
		{ "mailer-daemon.eml", "sender: MAILER-DAEMON@mx.example.org" },
		{ "postmaster.eml", "sender: Postmaster@example.org" },
		{ "delivery-report.eml", "a delivery report (multipart/report)" },
	};
	struct mailin_message m;
	enum mail_status st;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		st = parse_file(cases[i].file, &m);
		ok(st == MAIL_OK && m.automatic, "%s: automatic", cases[i].file);
		ok_str(m.automatic_reason, cases[i].reason, "%s: reason", cases[i].file);
		mailin_message_release(&m);
	}

	st = parse_file("auto-submitted-no.eml", &m);
	ok(st == MAIL_OK && !m.automatic, "Auto-Submitted: no and another Precedence: answered");
	mailin_message_release(&m);

	st = parse_str("From: <>\nSubject: x\n\nx\n", &m);
	ok(st == MAIL_BAD_FROM && m.automatic, "From: <> is automatic (and a bad From)");
	ok_str(m.automatic_reason, "empty sender address", "From: <>: reason");
	mailin_message_release(&m);

	st = parse_str("Return-Path: <MAILER-DAEMON@mx.example.org>\nFrom: a@example.org\nSubject: x\n\nx\n", &m);
	ok(st == MAIL_OK && m.automatic, "Return-Path MAILER-DAEMON: automatic");
	mailin_message_release(&m);

	st = parse_str("From: a@example.org\nAuto-Submitted: auto-generated; owner-email=\"x@y\"\n"
	    "Subject: x\n\nx\n", &m);
	ok(m.automatic && strncmp(m.automatic_reason, "Auto-Submitted: auto-generated", 30) == 0,
	    "Auto-Submitted with parameters: automatic");
	mailin_message_release(&m);

	st = parse_str("From: a@example.org\nAuto-Submitted: No (a person)\nSubject: x\n\nx\n", &m);
	ok(!m.automatic, "Auto-Submitted: No with a comment: not automatic");
	mailin_message_release(&m);
}

/* Feed data to a pipe from a child; returns the read end.  The child exits 0 if all was written. */
static int feeder(const char *data, size_t len, pid_t *pid)
{
	int fds[2];
	size_t off = 0;
	ssize_t n;

	if (pipe(fds) != 0)
		exit(1);
	*pid = fork();
	if (*pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		close(fds[0]);
		while (off < len) {
			n = write(fds[1], data + off, len - off);
			if (n <= 0)
				_exit(1);
			off += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

static int child_ok(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_read(void)
{
	struct mailin_message m;
	enum mail_status st;
	char *buf, *big;
	size_t len, biglen, n;
	pid_t pid;
	int fd;

	big = t_load("tests/data/mail", "plain.eml", &biglen);
	fd = feeder(big, biglen, &pid);
	st = mailin_read(fd, 0, &buf, &len);
	close(fd);
	ok_int(st, MAIL_OK, "read from a pipe: ok");
	ok(len == biglen && memcmp(buf, big, len) == 0 && buf[len] == '\0', "read from a pipe: all bytes, NUL-terminated");
	ok(child_ok(pid), "read from a pipe: writer done");
	free(buf);
	free(big);

	/* 300 KiB: over the default cap of 256 KiB */
	biglen = 300 * 1024;
	big = malloc(biglen);
	n = (size_t)sprintf(big, "From: Oscar <oscar@example.com>\nSubject: move 101 oscar pw E5\n"
	    "Message-ID: <big@example.com>\n\n");
	memset(big + n, 'a', biglen - n);
	for (n += 70; n < biglen; n += 71)
		big[n] = '\n';
	fd = feeder(big, biglen, &pid);
	st = mailin_read(fd, 0, &buf, &len);
	close(fd);
	ok_int(st, MAIL_TOO_BIG, "300 KiB mail: MAIL_TOO_BIG");
	ok(child_ok(pid), "300 KiB mail: the rest was drained, the writer saw no broken pipe");
	ok(len < 200 && buf[len - 1] == '\n' && buf[len - 2] == '\n', "300 KiB mail: the header section kept");
	st = mailin_parse(buf, len, &m);
	ok(st == MAIL_OK && strcmp(m.from_addr, "oscar@example.com") == 0 && m.body_len == 0,
	    "300 KiB mail: headers parse, so the sender can be told");
	mailin_message_release(&m);
	free(buf);

	/* a cap that falls inside the headers: cut after the last whole line */
	fd = feeder(big, 4000, &pid);
	st = mailin_read(fd, 40, &buf, &len);
	close(fd);
	ok_int(st, MAIL_TOO_BIG, "cap inside the headers: MAIL_TOO_BIG");
	ok_str(buf, "From: Oscar <oscar@example.com>\n", "cap inside the headers: whole lines kept");
	ok(child_ok(pid), "cap inside the headers: drained");
	free(buf);

	/* exactly at the cap is not too big */
	fd = feeder(big, 1000, &pid);
	st = mailin_read(fd, 1000, &buf, &len);
	close(fd);
	ok(st == MAIL_OK && len == 1000, "exactly the cap: ok");
	child_ok(pid);
	free(buf);
	free(big);

	fd = feeder("", 0, &pid);
	st = mailin_read(fd, 0, &buf, &len);
	close(fd);
	ok(st == MAIL_OK && len == 0 && buf[0] == '\0', "empty input: ok, nothing read");
	child_ok(pid);
	free(buf);

	st = mailin_read(-1, 0, &buf, &len);
	ok(st == MAIL_READ_ERROR && buf == NULL, "read error: MAIL_READ_ERROR");
}

static void test_misc(void)
{
	struct mailin_message m;
	int i, j, distinct = 1;

	for (i = MAIL_OK; i <= MAIL_NO_SECRET; i++)
		for (j = MAIL_OK; j < i; j++)
			if (strcmp(mail_status_str((enum mail_status)i), mail_status_str((enum mail_status)j)) == 0)
				distinct = 0;
	ok(distinct, "status strings distinct");
	ok_str(mail_status_str(MAIL_TWO_FROM), "the mail has more than one From header", "status string");
	ok_str(mail_status_str((enum mail_status)99), "unknown mail status", "unknown status string");

	/* init and shutdown are idempotent; shutdown is final, so it is tested last (in main) */
	mailin_init();
	mailin_init();
	ok_int(parse_str("From: a@example.org\nSubject: again\n\nx\n", &m), MAIL_OK, "parse after a second init");
	ok_str(m.subject, "again", "parse after a second init: subject");
	mailin_message_release(&m);

	/* an HTML-only reply: the lines of its <blockquote> quoted as plain text quotes them */
	ok_int(parse_str("From: a@example.org\nSubject: Re: x\nContent-Type: text/html\n\n<div>Hi,</div><div>show&nbsp;101"
	    "</div><blockquote type=\"cite\"><div>move 101 a pw A5</div><blockquote>deeper</blockquote></blockquote>"
	    "<div>after</div>\n", &m), MAIL_OK, "HTML with a blockquote");
	ok(strstr(m.body, "\n> move 101 a pw A5\n") != NULL && strstr(m.body, "\n> deeper\n") != NULL,
	    "HTML: the quoted lines start with '> '");
	ok(strstr(m.body, "\nHi,\n") != NULL && strstr(m.body, "> after") == NULL && strstr(m.body, "> Hi") == NULL,
	    "HTML: the lines outside the blockquote do not");
	mailin_message_release(&m);
}

/* format=flowed (RFC 3676): soft breaks undone before the command is read. */
static void test_flowed(void)
{
	struct mailin_message m;

	parse_str("From: a@example.org\nContent-Type: text/plain; charset=us-ascii; format=flowed\n\n"
	    "move 104#1 bob \nhunter2 D4\nfixed line\n", &m);
	ok_str(m.body, "move 104#1 bob hunter2 D4\nfixed line\n", "flowed: a soft break joined, the space kept");
	mailin_message_release(&m);
	parse_str("From: a@example.org\nContent-Type: text/plain; format=Flowed; DelSp=Yes\n\n"
	    "move 104#1 bob hun \nter2 D4\n", &m);
	ok_str(m.body, "move 104#1 bob hunter2 D4\n", "flowed: delsp=yes drops the soft break's space");
	mailin_message_release(&m);
	parse_str("From: a@example.org\nContent-Type: text/plain; format=flowed\n\n"
	    "  stuffed \nline\n-- \nsig \ncontinued\n", &m);
	ok_str(m.body, " stuffed line\n-- \nsig continued\n", "flowed: space-stuffing removed, the signature line fixed");
	mailin_message_release(&m);
	parse_str("From: a@example.org\nContent-Type: text/plain; format=flowed\n\n"
	    "text \n> quoted \n> more\n>> deeper \nnot quoted\n", &m);
	ok_str(m.body, "text\n> quoted more\n>> deeper\nnot quoted\n",
	    "flowed: quoted lines join at the same depth only, keeping their marks");
	mailin_message_release(&m);
	parse_str("From: a@example.org\nContent-Type: text/plain\n\nmove 104#1 bob \nhunter2 D4\n", &m);
	ok_str(m.body, "move 104#1 bob \nhunter2 D4\n", "flowed: not without format=flowed");
	mailin_message_release(&m);
	parse_str("From: a@example.org\nContent-Type: text/plain; format=flowed\n\n>\n>", &m);
	ok_str(m.body, "> \n> \n", "flowed: bare quote marks");
	mailin_message_release(&m);
	parse_str("From: a@example.org\nContent-Type: text/plain; format=flowed\n"
	    "Content-Transfer-Encoding: quoted-printable\n\nmove 104#1 bob=20\r\nhunter2 D4 \n", &m);
	ok_str(m.body, "move 104#1 bob hunter2 D4\n", "flowed: after quoted-printable, a last flowed line ended");
	mailin_message_release(&m);
}

int main(void)
{
	test_shapes();
	test_hostile();
	test_ids();
	test_automatic();
	test_read();
	test_misc();
	test_flowed();
	mailin_shutdown();
	mailin_shutdown();
	ok(1, "shutdown twice");
	return t_done();
}
