/* Unit tests for utf8: decoding (RFC 3629), cleaning, checking, cutting. */
#include "base/utf8.h"
#include "t.h"

#include <stdlib.h>
#include <string.h>

static int decodes(const char *s, size_t n, uint32_t want, size_t wantlen)
{
	uint32_t cp = 0;
	size_t len = utf8_decode(s, n, &cp);

	return len == wantlen && (len == 0 || cp == want);
}

static void test_decode(void)
{
	ok(decodes("A", 1, 'A', 1), "ASCII");
	ok(decodes("\xc3\xa9", 2, 0xe9, 2), "two bytes");
	ok(decodes("\xe2\x82\xac", 3, 0x20ac, 3), "three bytes");
	ok(decodes("\xf0\x9f\x98\x80", 4, 0x1f600, 4), "four bytes");
	ok(decodes("\xf4\x8f\xbf\xbf", 4, 0x10ffff, 4), "U+10FFFF");
	ok(decodes("", 0, 0, 0), "nothing");
	ok(decodes("\x80", 1, 0, 0), "lone continuation byte");
	ok(decodes("\xc0\xaf", 2, 0, 0), "overlong two bytes");
	ok(decodes("\xe0\x80\xaf", 3, 0, 0), "overlong three bytes");
	ok(decodes("\xf0\x80\x80\xaf", 4, 0, 0), "overlong four bytes");
	ok(decodes("\xed\xa0\x80", 3, 0, 0), "surrogate");
	ok(decodes("\xf4\x90\x80\x80", 4, 0, 0), "above U+10FFFF");
	ok(decodes("\xf5\x80\x80\x80", 4, 0, 0), "0xf5 lead");
	ok(decodes("\xe2\x82", 2, 0, 0), "cut short");
	ok(decodes("\xe2\x82\xac", 2, 0, 0), "cut short by n");
	ok(decodes("\xe2\x28\xac", 3, 0, 0), "bad continuation");
	ok(utf8_is_control(0) && utf8_is_control(0x1f) && utf8_is_control(0x7f) && utf8_is_control(0x85) &&
	    !utf8_is_control(' ') && !utf8_is_control(0xa0), "controls: C0, DEL, C1");
}

static void test_clean(void)
{
	const char in[] = "a\r\nb\rc\n\td\x01\x7f" "e\xc2\x85" "f\xff" "g\0h";
	size_t len;
	char *c;

	c = utf8_clean(in, sizeof in - 1, UTF8_TEXT, 0, &len);
	ok_str(c, "a\nb\nc\n\tdef\xef\xbf\xbdgh", "text: CRLF and CR to LF, controls gone, bad byte replaced");
	ok_int(len, strlen(c), "text: length");
	free(c);
	c = utf8_clean(in, sizeof in - 1, UTF8_LINE, 0, NULL);
	ok_str(c, "a b c  def\xef\xbf\xbdgh", "line: CR, LF, TAB become spaces");
	free(c);
	c = utf8_clean(in, sizeof in - 1, UTF8_TEXT_KEEP, 0, &len);
	ok_str(c, "a\nb\nc\n\td\x01\x7f" "e\xc2\x85" "f\xef\xbf\xbdg\xef\xb7\x90h",
	    "text keep: controls kept, NUL as U+FDD0");
	ok_int(len, strlen(c), "text keep: length");
	free(c);
	c = utf8_clean(in, sizeof in - 1, UTF8_LINE_KEEP, 0, NULL);
	ok_str(c, "a b c  d\x01\x7f" "e\xc2\x85" "f\xef\xbf\xbdg\xef\xb7\x90h", "line keep: CR, LF, TAB as spaces");
	free(c);
	c = utf8_clean("a\xef\xb7\x90" "b", 5, UTF8_TEXT, 0, NULL);
	ok_str(c, "ab", "text: the NUL mark is dropped with the controls");
	free(c);
	ok(utf8_is_bidi_control(0x202e) && utf8_is_bidi_control(0x202a) && utf8_is_bidi_control(0x2066) &&
	    utf8_is_bidi_control(0x2069) && !utf8_is_bidi_control(0x2029) && !utf8_is_bidi_control(0x206a) &&
	    !utf8_is_bidi_control('a'), "bidi controls: embeddings, overrides, isolates");
	c = utf8_clean("\xc3\xa9\xc3\xa9\xc3\xa9", 6, UTF8_TEXT, 5, &len);
	ok_str(c, "\xc3\xa9\xc3\xa9", "cut at a character boundary within max");
	free(c);
	c = utf8_clean("abc", 3, UTF8_TEXT, 3, &len);
	ok_str(c, "abc", "exactly max");
	free(c);
	c = utf8_clean("", 0, UTF8_TEXT, 0, &len);
	ok(c != NULL && len == 0 && c[0] == '\0', "empty");
	free(c);
}

static void test_check(void)
{
	size_t bad = 99;

	ok(utf8_valid("a\x01\xc3\xa9", 4), "valid: controls are valid UTF-8");
	ok(!utf8_valid("a\xff", 2), "valid: 0xff is not");
	ok(utf8_text_ok("a\n\tb\xc3\xa9", 6, &bad), "text ok: LF, TAB, letters");
	ok(!utf8_text_ok("ab\rc", 4, &bad) && bad == 2, "text ok: CR refused at its offset");
	ok(!utf8_text_ok("abc\xc3", 4, &bad) && bad == 3, "text ok: cut sequence refused at its offset");
	ok(!utf8_text_ok("a\xc2\x85", 3, NULL), "text ok: C1 control refused, NULL offset");
	ok_int(utf8_prefix("\xc3\xa9\xc3\xa9x", 2), 4, "prefix: two characters are four bytes");
	ok_int(utf8_prefix("ab", 5), 2, "prefix: shorter string");
	ok_int(utf8_prefix("ab", 0), 0, "prefix: none");
}

/* utf8_visible: invisible and bidi characters shown as <U+XXXX> (issue 31) */
static void test_visible(void)
{
	size_t n = 0;
	char *v;

	v = utf8_visible("a\xe2\x80\xae" "b\xe2\x80\x8b" "c\xe2\x81\xa6" "d\xef\xbb\xbf", 16, &n);
	ok_str(v, "a<U+202E>b<U+200B>c<U+2066>d<U+FEFF>", "visible: RLO, ZWSP, LRI and an inner BOM shown");
	ok_int((int)n, (int)strlen(v), "visible: its length");
	free(v);
	v = utf8_visible("\xef\xbb\xbfhi \xc3\xa9", 8, &n);
	ok_str(v, "hi \xc3\xa9", "visible: a leading byte order mark dropped, letters kept");
	free(v);
	v = utf8_visible("x\xffy", 3, NULL);
	ok_str(v, "x\xffy", "visible: an invalid byte copied as it is");
	free(v);
	ok(utf8_is_invisible(0x200f) && utf8_is_invisible(0x2069) && !utf8_is_invisible(0x2070) &&
	    !utf8_is_invisible(0x200a), "invisible: the ranges' ends");
}

int main(void)
{
	test_decode();
	test_clean();
	test_check();
	test_visible();
	return t_done();
}
