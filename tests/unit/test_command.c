/* Unit tests for command: finding the command, every command shape, every error, masking, comments. */
#include "commands/pipeline/mailcmd.h"
#include "mail/command.h"
#include "mail/mailfind.h"
#include "t.h"

#include <stdlib.h>
#include <string.h>

static struct command cmd;

/* what an unknown command's error lists */
#define COMMANDS "; the commands are register, password, challenge, accept, decline, challenges, tournament, tournaments, join, withdraw, begin, move, swap, resign, " \
	"preview, moves, show, history, sgf, review, subscribe, unsubscribe, notify, chat, games, finished, standings, rating, seek, " \
	"limit, help, forgot, reset, address, confirm, signoff, queue, vacation, set, settings, tokens and whoami"

static enum command_result subj(const char *s)
{
	return mailfind_parse(&mailcmd_grammar, s, "", &cmd);
}

/* Parse a subject that must fail with st and the message want. */
static void fails(const char *subject, enum command_result st, const char *want)
{
	enum command_result got = mailfind_parse(&mailcmd_grammar, subject, NULL, &cmd);

	ok_int(got, st, "'%s' fails with %d", subject, (int)st);
	ok_str(cmd.error, want, "'%s': error message", subject);
	ok(cmd.syntax == NULL, "'%s': no kind", subject);
}

static void test_register_password(void)
{
	ok_int(subj("register Alice s3cret Alice Liddell"), COMMAND_OK, "register with full name");
	ok(command_is(&cmd, "register"), "register: kind");
	ok_str(cmd.userid, "alice", "register: user id folded");
	ok_str(cmd.password, "s3cret", "register: password kept as typed");
	ok_str(cmd.fullname, "Alice Liddell", "register: full name");
	ok_str(cmd.error, "", "register: no error");
	ok_int(cmd.source, COMMAND_FROM_SUBJECT, "register: from the subject");

	ok_int(subj("REGISTER bob pw"), COMMAND_OK, "register without full name, keyword upper case");
	ok_str(cmd.fullname, "", "register: empty full name");

	ok_int(subj("register carol pw   Carol \t  de   la Mare  "), COMMAND_OK, "register: spaced full name");
	ok_str(cmd.fullname, "Carol de la Mare", "register: full name words joined by single spaces");
	{
		char line[600], name[300];
		int i;

		/* 64 characters of two bytes each: within the limit, counted in characters */
		for (i = 0, name[0] = '\0'; i < 64; i++)
			strcat(name, "\xc3\xa9");
		snprintf(line, sizeof line, "register erin pw %s", name);
		ok_int(subj(line), COMMAND_OK, "register: 64 characters of 128 bytes");
		ok_str(cmd.fullname, name, "register: the 64-character name");
		snprintf(line, sizeof line, "register erin pw %s\xc3\xa9", name);
		fails(line, COMMAND_BAD_NAME, "the full name is longer than 64 characters");
		for (i = 0, name[0] = '\0'; i < 65; i++)
			strcat(name, "a");
		snprintf(line, sizeof line, "register erin pw %s", name);
		fails(line, COMMAND_BAD_NAME, "the full name is longer than 64 characters");
	}
	fails("register erin pw Erin \xe2\x80\xae" "nilE", COMMAND_BAD_NAME, "the full name contains a bidirectional "
	    "formatting character (U+202A to U+202E, U+2066 to U+2069)");
	fails("register erin pw \xe2\x81\xa6x", COMMAND_BAD_NAME, "the full name contains a bidirectional "
	    "formatting character (U+202A to U+202E, U+2066 to U+2069)");

	ok_int(subj("password alice old new"), COMMAND_OK, "password");
	ok(command_is(&cmd, "password"), "password: kind");
	ok_str(cmd.password, "old", "password: old");
	ok_str(cmd.new_password, "new", "password: new");

	fails("register alice", COMMAND_USAGE,
	    "register needs: register <userid> <password> [full name]; missing: <userid> or <password>. Send: register <userid> <password>");
	fails("password alice old", COMMAND_USAGE,
	    "password needs: password <userid> <old password> <new password>; "
	    "missing: one of <userid> <old password> <new password>. Send: password <userid> <old password> <new password>");
	fails("password alice old new extra", COMMAND_USAGE,
	    "password needs: password <userid> <old password> <new password>; 1 word too many");
	fails("register al!ce pw", COMMAND_BAD_USERID,
	    "'al!ce' is not a user id (1 to 32 letters, digits, '_' or '-')");
	fails("register _alice pw", COMMAND_BAD_USERID,
	    "'_alice' is not a user id (1 to 32 letters, digits, '_' or '-')");
	fails("register abcdefghijklmnopqrstuvwxyz0123456 pw", COMMAND_BAD_USERID,
	    "'abcdefghijklmnopqrstuvwxyz0123456' is not a user id (1 to 32 letters, digits, '_' or '-')");
	ok_int(subj("register abcdefghijklmnopqrstuvwxyz012345 pw"), COMMAND_OK, "32-character user id");
	fails("register alice 0123456789012345678901234567890123456789012345678901234567890123456789",
	    COMMAND_BAD_PASSWORD, "the password is longer than 64 characters");
	ok_int(subj("register alice 0123456789012345678901234567890123456789012345678901234567890123"),
	    COMMAND_OK, "64-character password");
	fails("password alice old 0123456789012345678901234567890123456789012345678901234567890123456789",
	    COMMAND_BAD_PASSWORD, "the password is longer than 64 characters");
	fails("register alice pw Alice Pleasance Liddell of Oxford and of Wonderland and Looking-Glass",
	    COMMAND_BAD_NAME, "the full name is longer than 64 characters");
}

static void test_challenge(void)
{
	ok_int(subj("challenge alice pw bob"), COMMAND_OK, "challenge with defaults");
	ok(command_is(&cmd, "challenge"), "challenge: kind");
	ok_str(cmd.opponent, "bob", "challenge: opponent");
	ok_int(cmd.size, 11, "challenge: default size 11");
	ok_int(cmd.color, COMMAND_COLOR_BLACK, "challenge: challenger black by default");
	ok(!cmd.noswap, "challenge: swap on by default");

	ok_int(subj("challenge alice pw BOB -size=13 -white -noswap"), COMMAND_OK, "challenge with options");
	ok_str(cmd.opponent, "bob", "challenge: opponent folded");
	ok_int(cmd.size, 13, "challenge: -size=13");
	ok_int(cmd.color, COMMAND_COLOR_WHITE, "challenge: -white");
	ok(cmd.noswap, "challenge: -noswap");

	ok_int(subj("challenge alice pw bob -RANDOM -Size=5"), COMMAND_OK, "challenge: options case-insensitive");
	ok_int(cmd.color, COMMAND_COLOR_RANDOM, "challenge: -random");
	ok_int(cmd.size, 5, "challenge: -size=5");
	ok_int(subj("challenge alice pw bob -size=25 -black"), COMMAND_OK, "challenge: -size=25 -black");
	ok_int(cmd.color, COMMAND_COLOR_BLACK, "challenge: -black");
	fails("challenge alice pw bob -size=25 -black -black", COMMAND_BAD_OPTION,
	    "'-black' is given twice: give each option once");
	fails("challenge alice pw bob -size=9 -size=9", COMMAND_BAD_OPTION,
	    "'-size=9' is given twice: give each option once");
	fails("challenge alice pw bob -size=9 -white -size=11", COMMAND_BAD_OPTION,
	    "'-size=11' is given twice: give each option once");
	fails("challenge alice pw bob -noswap -NOSWAP", COMMAND_BAD_OPTION,
	    "'-NOSWAP' is given twice: give each option once");
	fails("challenge alice pw bob -size=09", COMMAND_BAD_OPTION,
	    "-size=09: write the size without leading zeros, as in -size=9");

	fails("challenge alice pw", COMMAND_USAGE, "challenge needs: challenge <userid> <password> <opponent>|* "
	    "[-size=N|-hex[=S]] [-black|-white|-random] [-noswap] [-level=N] [-unrated] [-remind=DAYS] [-timeout=DAYS|-clock=D+I/C] [-weekends] [-ladder=ID]; "
	    "missing: one of <userid> <password> <opponent>. Send: challenge <userid> <password> <opponent>");
	fails("challenge alice pw bob -size=12", COMMAND_BAD_OPTION, "-size=12: the size must be odd, from 5 to 25");
	fails("challenge alice pw bob -size=3", COMMAND_BAD_OPTION, "-size=3: the size must be odd, from 5 to 25");
	fails("challenge alice pw bob -size=27", COMMAND_BAD_OPTION, "-size=27: the size must be odd, from 5 to 25");
	fails("challenge alice pw bob -size=11x", COMMAND_BAD_OPTION, "-size=11x: the size must be odd, from 5 to 25");
	fails("challenge alice pw bob -size=0000000011", COMMAND_BAD_OPTION,
	    "-size=0000000011: write the size without leading zeros, as in -size=9");
	fails("challenge alice pw bob -size=0", COMMAND_BAD_OPTION,
	    "-size=0: write the size without leading zeros, as in -size=9");
	fails("challenge alice pw bob -size", COMMAND_BAD_OPTION, "-size: the size must be odd, from 5 to 25");
	fails("challenge alice pw bob -size=", COMMAND_BAD_OPTION,
	    "unknown option '-size=' (use -size=N, -hex, -hex=S, -black, -white, -random, -noswap, -level=N, -unrated, -remind=DAYS, -timeout=DAYS, -clock=D+I/C, -weekends or -ladder=ID)");
	fails("challenge alice pw bob -colour=red", COMMAND_BAD_OPTION,
	    "unknown option '-colour=red' (use -size=N, -hex, -hex=S, -black, -white, -random, -noswap, -level=N, -unrated, -remind=DAYS, -timeout=DAYS, -clock=D+I/C, -weekends or -ladder=ID)");
	fails("challenge alice pw bob 13", COMMAND_BAD_OPTION,
	    "unknown option '13' (use -size=N, -hex, -hex=S, -black, -white, -random, -noswap, -level=N, -unrated, -remind=DAYS, -timeout=DAYS, -clock=D+I/C, -weekends or -ladder=ID)");
	ok_int(subj("challenge alice pw bob -hex"), COMMAND_OK, "challenge: -hex");
	ok(cmd.hex && cmd.size == 7, "challenge: -hex is side 7");
	ok_int(subj("challenge alice pw bob -HEX=10 -white"), COMMAND_OK, "challenge: -hex=10");
	ok(cmd.hex && cmd.size == 10 && cmd.color == COMMAND_COLOR_WHITE, "challenge: -hex=10, side 10");
	fails("challenge alice pw bob -hex=3 -hex=4", COMMAND_BAD_OPTION, "'-hex=4' is given twice: give each option once");
	fails("challenge alice pw bob -hex=07", COMMAND_BAD_OPTION,
	    "-hex=07: write the side without leading zeros, as in -hex=7");
	ok_int(subj("challenge alice pw bob -size=9"), COMMAND_OK, "challenge: -size alone");
	ok(!cmd.hex && cmd.size == 9, "challenge: -size is square");
	fails("challenge alice pw bob -hex=2", COMMAND_BAD_OPTION, "-hex=2: the hex side must be from 3 to 10");
	fails("challenge alice pw bob -hex=11", COMMAND_BAD_OPTION, "-hex=11: the hex side must be from 3 to 10");
	fails("challenge alice pw bob -hex=7x", COMMAND_BAD_OPTION, "-hex=7x: the hex side must be from 3 to 10");
	fails("challenge alice pw bob -hex=77", COMMAND_BAD_OPTION, "-hex=77: the hex side must be from 3 to 10");
	fails("challenge alice pw bob -size=9 -hex", COMMAND_BAD_OPTION,
	    "'-hex' contradicts '-size=9': choose a square or a hex board");
	fails("challenge alice pw bob -hex=5 -size=9", COMMAND_BAD_OPTION,
	    "'-size=9' contradicts '-hex=5': choose a square or a hex board");
	/* the robot player's level (robot.h) */
	ok_int(subj("challenge alice pw robot -size=9 -level=3"), COMMAND_OK, "challenge robot -level=3");
	ok_int(cmd.level, 3, "challenge: -level=3");
	ok_str(cmd.opponent, "robot", "challenge: the robot");
	ok_int(subj("challenge alice pw robot -LEVEL=1"), COMMAND_OK, "-LEVEL=1: options are case-insensitive");
	ok_int(cmd.level, 1, "challenge: -level=1");
	ok_int(subj("challenge alice pw robot -level=5 -white"), COMMAND_OK, "-level=5 with a colour");
	ok_int(cmd.level, 5, "challenge: -level=5");
	ok_int(subj("challenge alice pw robot"), COMMAND_OK, "challenge robot without a level");
	ok_int(cmd.level, 0, "challenge: no level given is 0");
	fails("challenge alice pw robot -level=9", COMMAND_BAD_OPTION, "-level=9: the level must be from 1 to 5");
	fails("challenge alice pw robot -level=0", COMMAND_BAD_OPTION, "-level=0: the level must be from 1 to 5");
	fails("challenge alice pw robot -level=33", COMMAND_BAD_OPTION, "-level=33: the level must be from 1 to 5");
	fails("challenge alice pw robot -level=x", COMMAND_BAD_OPTION, "-level=x: the level must be from 1 to 5");
	fails("challenge alice pw robot -level", COMMAND_BAD_OPTION, "-level: the level must be from 1 to 5");
	fails("challenge alice pw robot -level=", COMMAND_BAD_OPTION, "-level=: the level must be from 1 to 5");
	fails("challenge alice pw bob -black -white", COMMAND_BAD_OPTION,
	    "'-white' contradicts '-black': choose one colour");
	fails("challenge alice pw b@b", COMMAND_BAD_USERID,
	    "'b@b' is not a user id (1 to 32 letters, digits, '_' or '-')");
	fails("challenge alice pw Alice", COMMAND_BAD_USERID, "alice cannot challenge alice: choose another opponent");
}

static void test_move(void)
{
	ok_int(subj("move 101 alice pw E5"), COMMAND_OK, "move, one placement");
	ok(command_is(&cmd, "move"), "move: kind");
	ok_int(cmd.board, 101, "move: board");
	ok_int(cmd.turn, 0, "move: no #turn is 0");
	ok_int(cmd.nplacements, 1, "move: one placement");
	ok_str(cmd.placements[0].name, "E5", "move: E5");
	ok(cmd.placements[0].x == 4 && cmd.placements[0].y == 4, "move: E5 is x 4, y 4");

	ok_int(subj("move 101#7 alice pw e5,F5,g6"), COMMAND_OK, "move with #turn, lower case");
	ok_int(cmd.turn, 7, "move: #7");
	ok_int(cmd.nplacements, 3, "move: three placements");
	ok_str(cmd.placements[2].name, "G6", "move: g6 upper-cased");

	ok_int(subj("move 101 alice pw E5, F5 ,G6 , h7"), COMMAND_OK, "move: spaces around commas");
	ok_int(cmd.nplacements, 4, "move: four placements");
	ok_str(cmd.placements[3].name, "H7", "move: H7");

	ok_int(subj("move 99999999#999999 alice pw J1,Z25,A10"), COMMAND_OK, "move: largest board, turn, vertices");
	ok(cmd.placements[0].x == 8 && cmd.placements[0].y == 0, "move: J is column 8 (I skipped)");
	ok(cmd.placements[1].x == 24 && cmd.placements[1].y == 24, "move: Z25 is x 24, y 24");
	ok_str(cmd.placements[2].name, "A10", "move: two-digit row");

	fails("move 101 alice pw", COMMAND_USAGE,
	    "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: <placements>. Send: move 101 alice <password> <placements>");

	/* pbmserv's words in place of the placements */
	ok_int(subj("move 101 alice pw undo"), COMMAND_OK, "move ... undo");
	ok(cmd.offer == COMMAND_OFFER_UNDO && cmd.nplacements == 0, "undo: no placements");
	ok_int(subj("move 101#4 alice pw Propose"), COMMAND_OK, "move ... Propose, any case");
	ok(cmd.offer == COMMAND_OFFER_PROPOSE && cmd.turn == 4, "propose, #4");
	ok_int(subj("move 101 alice pw ACCEPT"), COMMAND_OK, "move ... ACCEPT");
	ok_int(cmd.offer, COMMAND_OFFER_ACCEPT, "accept");
	ok_int(subj("move 101 alice pw reject"), COMMAND_OK, "move ... reject");
	ok_int(cmd.offer, COMMAND_OFFER_REJECT, "reject");
	ok_int(subj("move 101 alice pw E5"), COMMAND_OK, "a move again");
	ok_int(cmd.offer, COMMAND_OFFER_NONE, "no offer word");
	fails("move 101 alice pw undo now", COMMAND_BAD_PLACEMENT, "a placement is not a column letter and a row, as in E5");
	fails("move 101 alice pw undo,E5", COMMAND_BAD_PLACEMENT, "a placement is not a column letter and a row, as in E5");
	fails("move 10a alice pw E5", COMMAND_BAD_BOARD, "'10a' is not a board number");
	fails("move 100 alice pw E5", COMMAND_BAD_BOARD, "'100' is not a board number");
	fails("move 0101 alice pw E5", COMMAND_BAD_BOARD, "'0101' is not a board number");
	fails("move #7 alice pw E5", COMMAND_BAD_BOARD, "'' is not a board number");
	fails("move 101#x alice pw E5", COMMAND_BAD_TURN, "'#x' is not a turn number (#1 to #999999)");
	fails("move 101# alice pw E5", COMMAND_BAD_TURN, "'#' is not a turn number (#1 to #999999)");
	fails("move 101#0 alice pw E5", COMMAND_BAD_TURN, "'#0' is not a turn number (#1 to #999999)");
	fails("move 101#1000000 alice pw E5", COMMAND_BAD_TURN, "'#1000000' is not a turn number (#1 to #999999)");
	fails("move 101#3#4 alice pw E5", COMMAND_BAD_TURN, "'#3#4' is not a turn number (#1 to #999999)");
	fails("move 101 alice pw E55", COMMAND_BAD_PLACEMENT, "'E55' is not a placement");
	/* I is a row of hex boards: the board decides (a square board refuses it). */
	ok_int(subj("move 101 alice pw i5,g13"), COMMAND_OK, "move: hex cells");
	ok(cmd.nplacements == 2 && strcmp(cmd.placements[0].name, "I5") == 0 && cmd.placements[0].x == -1 &&
	    strcmp(cmd.placements[1].name, "G13") == 0, "move: i5 and g13 kept for the board to read");
	fails("move 101 alice pw E0", COMMAND_BAD_PLACEMENT, "'E0' is not a placement");
	fails("move 101 alice pw E05", COMMAND_BAD_PLACEMENT, "'E05' is not a placement");
	fails("move 101 alice pw E26", COMMAND_BAD_PLACEMENT, "'E26' is not a placement");
	fails("move 101 alice pw 5E", COMMAND_BAD_PLACEMENT, "'5E': the column letter comes first: did you mean E5? Send: move 101 alice <password> E5");
	fails("move 101 alice pw E", COMMAND_BAD_PLACEMENT, "'E' is not a placement");
	fails("move 101 alice pw \xc3\x89" "5", COMMAND_BAD_PLACEMENT, "'\xc3\x89" "5' is not a placement");
	fails("move 101 alice pw E5,F55", COMMAND_BAD_PLACEMENT, "'F55' is not a placement");
	fails("move 101 alice pw 5E", COMMAND_BAD_PLACEMENT,
	    "'5E': the column letter comes first: did you mean E5? Send: move 101 alice <password> E5");
	fails("move 101#3 alice pw C4,E5F5", COMMAND_BAD_PLACEMENT,
	    "'E5F5': placements are joined by commas: did you mean E5,F5? Send: move 101#3 alice <password> C4,E5,F5");
	fails("move 101 alice pw b 3", COMMAND_BAD_PLACEMENT,
	    "'b 3' is one placement cut in two: did you mean B3? Send: move 101 alice <password> B3");
	fails("move 101 alice pw C4 b 13 E5", COMMAND_BAD_PLACEMENT,
	    "'b 13' is one placement cut in two: did you mean B13? Send: move 101 alice <password> C4,B13,E5");
	fails("move 101 alice pw resign", COMMAND_BAD_PLACEMENT,
	    "'resign' is a command of its own, not a placement. Send: resign 101 alice <password>");
	fails("move 101#4 alice pw D4#5", COMMAND_BAD_TURN, "two turn numbers: #4 after the board and #5 after the placements");
	fails("move 101 alice pw D4#5,E5", COMMAND_BAD_PLACEMENT, "'D4#5' is not a placement");
	subj("move 101 alice pw E5 F5");
	ok_int(cmd.nplacements, 2, "placements joined by a space: two");
	ok_str(cmd.placements[1].name, "F5", "placements joined by a space: the second");
	subj("move 101 alice pw E5, f5 G6,");
	ok_int(cmd.nplacements, 3, "placements: commas, spaces and a trailing comma");
	subj("move 101 alice pw D4#5");
	ok_int(cmd.turn, 5, "pbmserv's #turn on the placement: the turn");
	ok_str(cmd.placements[0].name, "D4", "pbmserv's #turn on the placement: the placement");
	subj("move 101#5 alice pw D4#5");
	ok_int(cmd.turn, 5, "the same #turn twice");
	subj("move 103 bob pw swap");
	ok_str(command_name(&cmd), "swap", "pbmserv's 'move ... swap' is the swap");
	ok_int(cmd.board, 103, "move ... swap: its board");
	ok_str(cmd.password, "pw", "move ... swap: its password");
	fails("move 101 alice pw E5,,F5", COMMAND_BAD_PLACEMENT, "'E5,,F5': a placement is missing between commas");
	fails("move 101 alice pw ,E5", COMMAND_BAD_PLACEMENT, "',E5': a placement is missing between commas");
	fails("move 101 Al.ice pw E5", COMMAND_BAD_USERID,
	    "'Al.ice' is not a user id (1 to 32 letters, digits, '_' or '-')");
	fails("move 101 alice 01234567890123456789012345678901234567890123456789012345678901234 E5",
	    COMMAND_BAD_PASSWORD, "the password is longer than 64 characters");
}

static void test_placement_cap(void)
{
	char line[COMMAND_LINE_MAX + 100];
	size_t n;
	int i;

	n = (size_t)sprintf(line, "move 101 alice pw ");
	for (i = 0; i < COMMAND_PLACEMENTS_MAX; i++)
		n += (size_t)sprintf(line + n, "%sA1", i != 0 ? "," : "");
	ok_int(subj(line), COMMAND_OK, "%d placements accepted", COMMAND_PLACEMENTS_MAX);
	ok_int(cmd.nplacements, COMMAND_PLACEMENTS_MAX, "%d placements parsed", COMMAND_PLACEMENTS_MAX);
	sprintf(line + n, ",A1");
	fails(line, COMMAND_BAD_PLACEMENT, "more than 625 placements");

	memset(line, 'x', COMMAND_LINE_MAX + 1);
	memcpy(line, "help ", 5);
	line[COMMAND_LINE_MAX + 1] = '\0';
	fails(line, COMMAND_TOO_LONG, "the command line is longer than 4096 characters");
	line[COMMAND_LINE_MAX] = '\0';
	ok_int(subj(line), COMMAND_OK, "a command line of exactly %d bytes", COMMAND_LINE_MAX);
}

static void test_other_commands(void)
{
	ok_int(subj("swap 101 bob pw"), COMMAND_OK, "swap");
	ok(command_is(&cmd, "swap") && cmd.board == 101 && strcmp(cmd.userid, "bob") == 0, "swap: fields");
	ok_int(subj("swap 101#2 bob pw"), COMMAND_OK, "swap with #turn");
	ok_int(cmd.turn, 2, "swap: #2");
	ok_int(subj("resign 102#9 bob pw"), COMMAND_OK, "resign");
	ok(command_is(&cmd, "resign") && cmd.board == 102 && cmd.turn == 9, "resign: fields");
	ok_int(subj("show 101"), COMMAND_OK, "show");
	ok(command_is(&cmd, "show") && cmd.board == 101 && cmd.turn == 0, "show: fields");
	ok_int(subj("show 101#4"), COMMAND_OK, "show with #turn");
	ok_int(cmd.turn, 4, "show: #4");
	ok_int(subj("history 101"), COMMAND_OK, "history");
	ok(command_is(&cmd, "history") && cmd.board == 101, "history: fields");
	ok_int(subj("games Alice"), COMMAND_OK, "games");
	ok(command_is(&cmd, "games") && strcmp(cmd.userid, "alice") == 0, "games: fields");
	ok_int(subj("help"), COMMAND_OK, "help");
	ok(command_is(&cmd, "help"), "help: kind");
	ok_int(subj("Help me please"), COMMAND_OK, "help: trailing words ignored");
	ok_int(subj("oust move 101 alice pw E5"), COMMAND_OK, "leading 'oust'");
	ok(command_is(&cmd, "move"), "leading 'oust': move");
	ok_int(subj("OUST help"), COMMAND_OK, "leading 'OUST'");

	fails("swap 101 bob", COMMAND_USAGE,
	    "swap needs: swap <board>[#turn] <userid> <password>; missing: <userid> or <password>. Send: swap 101 <userid> <password>");
	fails("resign 101 bob pw extra", COMMAND_USAGE,
	    "resign needs: resign <board>[#turn] <userid> <password>; 1 word too many");
	fails("swap x bob pw", COMMAND_BAD_BOARD, "'x' is not a board number");
	fails("resign 101#z bob pw", COMMAND_BAD_TURN, "'#z' is not a turn number (#1 to #999999)");
	fails("show", COMMAND_USAGE, "show needs: show <board>[#turn]; missing: <board>. Send: show <board>");
	fails("show 101 102", COMMAND_USAGE, "show needs: show <board>[#turn]; 1 word too many");
	fails("show 12345678901234567890", COMMAND_BAD_BOARD, "'12345678901234567890' is not a board number");
	fails("history 101#3", COMMAND_BAD_BOARD, "'101#3' is not a board number");
	fails("history", COMMAND_USAGE, "history needs: history <board>; missing: <board>. Send: history <board>");
	fails("games", COMMAND_USAGE, "games needs: games <userid> [active|next|finished|all]; missing: your user id. "
	    "Send: games <userid>");
	fails("games a b", COMMAND_USAGE,
	    "games needs: games <userid> [active|next|finished|all]; the last word may only be active|next|finished|all");
	fails("games a next b", COMMAND_USAGE, "games needs: games <userid> [active|next|finished|all]; 1 word too many");
	fails("games -x", COMMAND_BAD_USERID, "'-x' is not a user id (1 to 32 letters, digits, '_' or '-')");
	/* a misspelt keyword gets the nearest one and the list (the table's, mailcmd.c) */
	fails("challenge alice pw bob -unrated -unrated", COMMAND_BAD_OPTION,
	    "'-unrated' is given twice: give each option once");
	ok_int(subj("challenge alice pw bob -remind=2 -timeout=5"), COMMAND_OK, "challenge -remind=2 -timeout=5");
	ok(cmd.remind_days == 2 && cmd.timeout_days == 5, "... 2 and 5 days");
	ok_int(subj("challenge alice pw bob -TIMEOUT=3650"), COMMAND_OK, "-timeout=3650, any case");
	ok(cmd.remind_days == 0 && cmd.timeout_days == 3650, "... no -remind: 0");
	fails("challenge alice pw bob -timeout=0", COMMAND_BAD_OPTION,
	    "-timeout=0: the time to move before losing on time is a number of days, from 1 to 3650, as in -timeout=14");
	fails("challenge alice pw bob -remind=x", COMMAND_BAD_OPTION,
	    "-remind=x: the time before a reminder is a number of days, from 1 to 365, as in -remind=3");
	fails("challenge alice pw bob -remind=366", COMMAND_BAD_OPTION,
	    "-remind=366: the time before a reminder is a number of days, from 1 to 365, as in -remind=3");
	fails("challenge alice pw bob -remind", COMMAND_BAD_OPTION,
	    "-remind: the time before a reminder is a number of days, from 1 to 365, as in -remind=3");
	fails("challenge alice pw bob -timeout=07", COMMAND_BAD_OPTION,
	    "-timeout=07: the time to move before losing on time is a number of days, from 1 to 3650, as in -timeout=14");
	fails("challenge alice pw bob -remind=7 -timeout=7", COMMAND_BAD_OPTION,
	    "-remind=7 is not shorter than -timeout=7: the reminder must come before the loss on time");
	fails("challenge alice pw bob -timeout=3 -remind=1 -timeout=4", COMMAND_BAD_OPTION,
	    "'-timeout=4' is given twice: give each option once");
	ok_int(subj("challenge alice pw bob -unrated"), COMMAND_OK, "challenge -unrated");
	ok(cmd.unrated, "challenge -unrated: the flag");
	fails("mvoe 101 alice pw E5", COMMAND_UNKNOWN, "unknown command 'mvoe' (did you mean move?). Send: move 101 alice <password> E5");
	fails("oust mvoe", COMMAND_UNKNOWN, "unknown command 'mvoe' (did you mean move?)" COMMANDS);
	fails("oust", COMMAND_UNKNOWN, "unknown command 'oust'" COMMANDS);
	fails("hel", COMMAND_UNKNOWN, "unknown command 'hel' (did you mean help?). Send: help");
	fails("CHALENGE alice pw bob", COMMAND_UNKNOWN, "unknown command 'CHALENGE' (did you mean challenge?). Send: challenge alice <password> bob");
	fails("histroy 101", COMMAND_UNKNOWN, "unknown command 'histroy' (did you mean history?). Send: history 101");
	fails("shw 101", COMMAND_UNKNOWN, "unknown command 'shw' (did you mean show?). Send: show 101");
	fails("mo 101", COMMAND_UNKNOWN, "unknown command 'mo'" COMMANDS);
	fails("Supercalifragilisticexpialidocious-and-then-some-more", COMMAND_UNKNOWN,
	    "unknown command 'Supercalifragilisticexpialidocious-and-t...'" COMMANDS);
}

static void test_finding(void)
{
	ok_int(mailfind_parse(&mailcmd_grammar, "Re: Fwd: RE: fw: AW: move 101 alice pw E5", "", &cmd), COMMAND_OK,
	    "reply and forward prefixes removed");
	ok(command_is(&cmd, "move"), "prefixes: move");
	ok_int(mailfind_parse(&mailcmd_grammar, "[oust] Re: [games] show 101", "", &cmd), COMMAND_OK, "[tags] removed");
	ok(command_is(&cmd, "show"), "tags: show");
	ok_int(mailfind_parse(&mailcmd_grammar, "Re[2]: Re(3): Re : show 101", "", &cmd), COMMAND_OK, "Re[2]: and Re(3): removed");
	ok_int(mailfind_parse(&mailcmd_grammar, "Re: Oust Board 101 bob", "\n\n  move 101#2 bob pw F6, G7  \nNice.\n", &cmd),
	    COMMAND_OK, "server subject: command from the first body line");
	ok_int(cmd.source, COMMAND_FROM_BODY, "from the body");
	ok_int(cmd.nplacements, 2, "body command: placements");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "> move 101 alice pw A1\n>\nshow 101\n", &cmd), COMMAND_OK,
	    "quoted lines skipped when looking for the command");
	ok(command_is(&cmd, "show"), "quoted command not used");
	ok_int(mailfind_parse(&mailcmd_grammar, NULL, "help\r\n", &cmd), COMMAND_OK, "NULL subject, CRLF body");
	ok_int(mailfind_parse(&mailcmd_grammar, "Regarding our game", "show 101\n", &cmd), COMMAND_OK,
	    "'Re' must be followed by ':' to be a prefix; body used");
	ok(command_is(&cmd, "show"), "subject not a command: body");
	ok_int(mailfind_parse(&mailcmd_grammar, "help", "show 101\n", &cmd), COMMAND_CONFLICT,
	    "a Subject and a text holding different commands: neither runs");
	ok(strstr(cmd.error, "the Subject 'help', the text 'show 101'") != NULL, "... the error quotes both");

	fails("", COMMAND_EMPTY, "no command found: a command must stand on a line of its own, at the start of the "
	    "mail or in the Subject");
	ok_int(mailfind_parse(&mailcmd_grammar, "Re: ", "\n  \n> quoted\n-- \nsig\n", &cmd), COMMAND_EMPTY,
	    "blank, quoted and signature lines hold no command");
	ok_int(mailfind_parse(&mailcmd_grammar, "\x01\x02", NULL, &cmd), COMMAND_CONTROL, "control characters only: refused");
	ok_str(cmd.error, "the command line starts with a control character (U+0001): type the command again "
	    "without it", "control character first: error");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "register ev\xef\xb7\x90il pw\n", &cmd), COMMAND_CONTROL,
	    "a NUL in the command line (as mailin marks it): refused, not dropped");
	ok_str(cmd.error, "the command line has a control character (U+0000) at character 12, after 'register ev': "
	    "type the command again without it", "NUL: the character and its position");
	ok_int(mailfind_parse(&mailcmd_grammar, "show\x01 101", NULL, &cmd), COMMAND_CONTROL, "0x01 in the subject: refused");
	ok_str(cmd.error, "the command line has a control character (U+0001) at character 5, after 'show': "
	    "type the command again without it", "0x01: the character and its position");
	ok_int(mailfind_parse(&mailcmd_grammar, "register \xc3\xa9ve\xc2\x85 pw", NULL, &cmd), COMMAND_CONTROL, "U+0085 refused");
	ok_str(cmd.error, "the command line has a control character (U+0085) at character 13, after "
	    "'register \xc3\xa9ve': type the command again without it", "U+0085: counted in characters");
	ok_int(mailfind_parse(&mailcmd_grammar, "show 101\x7f", NULL, &cmd), COMMAND_CONTROL, "DEL refused");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "move 101 alice pw A1\x1b[31m\n", &cmd), COMMAND_CONTROL, "ESC in the body refused");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "> \x01quoted\nshow 101\nbye\x07\n", &cmd), COMMAND_OK,
	    "controls outside the command line do not matter");
	ok_int(mailfind_parse(&mailcmd_grammar, "show\t101", NULL, &cmd), COMMAND_OK, "TAB is a blank, not refused");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "On Mon, 20 Nov 2023, Bob <bob@example.com> wrote:\n> Oust Board 101 alice\n> "
	    "your turn\n\nmove 101 alice pw C3\n", &cmd), COMMAND_OK, "bottom-posted reply: the command below the quote");
	ok(command_is(&cmd, "move"), "bottom-posted reply: move");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "Bob writes:\n\n> quoted\nshow 101\n", &cmd), COMMAND_OK,
	    "attribution with 'writes:' and a blank line before the quote");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "I wrote:\nshow 101\n", &cmd), COMMAND_OK,
	    "a line ending 'wrote:' without a quote after it is prose, skipped");
	ok_int(mailfind_parse(&mailcmd_grammar, "Re: Oust Board 101 bob", "Thanks for the game!\n", &cmd), COMMAND_UNKNOWN,
	    "first body line not a command");
	ok_str(cmd.error, "no command found: the first line of your text, 'Thanks ****', is not a command. A command "
	    "must stand on a line of its own, at the start of the mail or in the Subject. Send: move 101 <userid> "
	    "<password> <placements>", "first body line not a command: error");
	ok_int(mailfind_parse(&mailcmd_grammar, "Re: Oust Board 101 bob", "", &cmd), COMMAND_EMPTY,
	    "no body: a Subject naming a board is no command");
	ok_str(cmd.error, "no command found: a command must stand on a line of its own, at the start of the mail or "
	    "in the Subject. Send: move 101 <userid> <password> <placements>", "server subject alone: an example");
	ok_int(mailfind_parse(&mailcmd_grammar, "move 101 alice pw E5 Bcc: victim@example.org", "", &cmd), COMMAND_BAD_PLACEMENT,
	    "injected text in a subject is only a bad placement");
}

static void test_mask(void)
{
	char *m;

	mailfind_parse(&mailcmd_grammar, "move 101#7 alice s3cret E5,F5", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "move 101#7 alice **** E5,F5", "mask: move");
	free(m);
	mailfind_parse(&mailcmd_grammar, "oust  register alice s3cret  Alice L", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "oust register alice **** Alice L", "mask: register");
	free(m);
	mailfind_parse(&mailcmd_grammar, "password alice old new", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "password alice **** ****", "mask: password, both");
	free(m);
	mailfind_parse(&mailcmd_grammar, "challenge alice pw bob -size=9", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "challenge alice **** bob -size=9", "mask: challenge");
	free(m);
	mailfind_parse(&mailcmd_grammar, "swap 101 alice pw", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "swap 101 alice ****", "mask: swap");
	free(m);
	mailfind_parse(&mailcmd_grammar, "resign 101 alice pw", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "resign 101 alice ****", "mask: resign");
	free(m);
	mailfind_parse(&mailcmd_grammar, "show 101", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "show 101", "mask: show has no password");
	free(m);
	mailfind_parse(&mailcmd_grammar, "move alice s3cret E5", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "move alice **** E5", "mask: failed move without its board: the password masked, E5 kept");
	free(m);
	mailfind_parse(&mailcmd_grammar, "register al!ce s3cret", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "register **** ****", "mask: failed register: neither a bad user id nor the password");
	free(m);
	mailfind_parse(&mailcmd_grammar, "mvoe 101 alice s3cret E5", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "mvoe ****", "mask: unknown command keeps only its first word");
	free(m);
	mailfind_parse(&mailcmd_grammar, "mvoe", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "mvoe", "mask: lone unknown word");
	free(m);
	mailfind_parse(&mailcmd_grammar, "", "", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "", "mask: no command");
	free(m);
	mailfind_parse(&mailcmd_grammar, "Re: x", "move 101 alice s3cret E5\n", &cmd);
	m = command_mask(&cmd);
	ok_str(m, "move 101 alice **** E5", "mask: command from the body");
	free(m);
}

/* One short (or long) form: its mask and error must not hold the password PW. */
#define PW "Zq9sec"
static void short_form(const char *line, const char *want_mask, const char *want_error)
{
	char *m;

	if (mailfind_parse(&mailcmd_grammar, line, "", &cmd) == COMMAND_OK && want_mask == NULL) {
		/* parsed with another meaning: the words are what they say ("register PW alice") */
		return;
	}
	m = command_mask(&cmd);
	ok(m != NULL && strstr(m, PW) == NULL, "'%s': the mask '%s' hides the password", line, m != NULL ? m : "");
	ok(strstr(cmd.error, PW) == NULL, "'%s': the error '%s' holds no password", line, cmd.error);
	if (want_mask != NULL)
		ok_str(m, want_mask, "'%s': mask", line);
	if (want_error != NULL)
		ok_str(cmd.error, want_error, "'%s': error", line);
	free(m);
}

/*
 * Every command with a password, with each word left out, each pair of
 * words left out, and a word too many at each place: the password is never
 * in the mask or the error.
 */
static void test_short_forms(void)
{
	static const char *const full[] = {
		"register alice " PW " Alice Liddell",
		"password alice " PW " " PW "2",
		"challenge alice " PW " bob -size=9 -white",
		"move 101#2 alice " PW " E5,F5",
		"swap 101#2 alice " PW,
		"resign 101 alice " PW,
		"oust resign 101 alice " PW,
		"reset alice " PW " " PW "2",
		"address alice " PW " alice@new.example",
		"confirm alice " PW,
		"signoff alice " PW,
		"whoami alice " PW,
	};
	char words[8][40], line[400];
	size_t i, n, a, b, k;

	for (i = 0; i < sizeof full / sizeof full[0]; i++) {
		const char *p = full[i];
		size_t first = strncmp(p, "oust ", 5) == 0 ? 2 : 1;	/* the keyword stays */

		for (n = 0; *p != '\0' && n < 8; n++) {
			k = strcspn(p, " ");
			snprintf(words[n], sizeof words[n], "%.*s", (int)k, p);
			p += k;
			p += strspn(p, " ");
		}
		for (a = first; a < n; a++) {
			for (b = a; b < n; b++) {
				/* words a..b left out (a == b: one word) */
				line[0] = '\0';
				for (k = 0; k < n; k++)
					if (k < a || k > b)
						snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s",
						    line[0] != '\0' ? " " : "", words[k]);
				short_form(line, NULL, NULL);
			}
			/* a word too many before word a */
			line[0] = '\0';
			for (k = 0; k < n; k++)
				snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s%s",
				    line[0] != '\0' ? " " : "", k == a ? "please " : "", words[k]);
			short_form(line, NULL, NULL);
		}
	}
	/* the shapes of the report, and the brief's example */
	short_form("move 101 " PW " C3", "move 101 **** C3",
	    "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: <userid> or <password>. Send: move 101 <userid> <password> C3");
	short_form("resign alice " PW, "resign alice ****",
	    "resign needs: resign <board>[#turn] <userid> <password>; missing: <board>. Send: resign <board> alice <password>");
	short_form("challenge " PW " bob", "challenge **** ****", NULL);
	short_form("password " PW " newpass", "password **** ****", NULL);
	short_form("move 101#2 bob D3", "move 101#2 **** D3",
	    "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: <userid> or <password>. "
	    "Send: move 101#2 <userid> <password> D3");
	short_form("move 101 alice " PW, "move 101 alice ****",
	    "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: <placements>. Send: move 101 alice <password> <placements>");
	short_form("swap 101 alice " PW " please", "swap 101 **** **** ****",
	    "swap needs: swap <board>[#turn] <userid> <password>; 1 word too many");
	short_form("challenge alice " PW " bob -size=12", "challenge alice **** bob -size=12",
	    "-size=12: the size must be odd, from 5 to 25");
	short_form("challenge alice " PW " bob -fast", "challenge alice **** bob ****", NULL);
	short_form("show 101 alice " PW, "show 101 **** ****", "show needs: show <board>[#turn]; 2 words too many");
	short_form("games alice " PW, "games alice ****", NULL);
	short_form("games alice next " PW, "games alice next ****", NULL);
	short_form("help alice " PW, "help **** ****", "");
	short_form("register al!ce " PW " Alice", "register **** **** ****", NULL);
}

/* The sender's accounts tell the words of an incomplete command apart (command_parse_as). */
static void test_senders(void)
{
	static const char *const bob[] = { "Bob" }, *const two[] = { "alice", "al2" };
	char *m;

	ok_int(mailfind_parse_as(&mailcmd_grammar, "move 101#2 bob D3", "", bob, 1, &cmd), COMMAND_USAGE,
	    "senders: the password forgotten");
	ok_str(cmd.error, "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: your password. "
	    "Send: move 101#2 bob <password> D3", "senders: the password is what is missing");
	ok_int(cmd.board, 101, "senders: the board of an incomplete command, for the Subject");
	m = command_mask(&cmd);
	ok_str(m, "move 101#2 bob D3", "senders: every word echoed, none is the password");
	free(m);
	mailfind_parse_as(&mailcmd_grammar, "move 101 " PW " A5", "", bob, 1, &cmd);
	ok_str(cmd.error, "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: your user id. "
	    "Send: move 101 bob <password> A5", "senders: the user id forgotten, the sender's own offered");
	m = command_mask(&cmd);
	ok_str(m, "move 101 **** A5", "senders: a word that is not the sender's id is the password");
	free(m);
	mailfind_parse_as(&mailcmd_grammar, "move 101 al2 A5", "", two, 2, &cmd);
	ok_str(cmd.error, "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: your password. "
	    "Send: move 101 al2 <password> A5", "senders: one of two accounts");
	mailfind_parse_as(&mailcmd_grammar, "move 101 " PW " A5", "", two, 2, &cmd);
	ok_str(cmd.error, "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: your user id. "
	    "Send: move 101 <userid> <password> A5", "senders: two accounts, none named: the slot's name");
	mailfind_parse_as(&mailcmd_grammar, "challenge alice bob", "", two, 2, &cmd);
	m = command_mask(&cmd);
	ok_str(m, "challenge alice ****", "senders: the opponent or the password: masked");
	free(m);
	ok_str(cmd.error, "challenge needs: challenge <userid> <password> <opponent>|* [-size=N|-hex[=S]] "
	    "[-black|-white|-random] [-noswap] [-level=N] [-unrated] [-remind=DAYS] [-timeout=DAYS|-clock=D+I/C] [-weekends] [-ladder=ID]; missing: <password> or <opponent>. "
	    "Send: challenge alice <password> <opponent>", "senders: two slots left for one word");
	mailfind_parse_as(&mailcmd_grammar, "swap 101 bob", "", bob, 1, &cmd);
	m = command_mask(&cmd);
	ok_str(m, "swap 101 bob", "senders: swap without its password");
	free(m);
	ok_int(mailfind_parse_as(&mailcmd_grammar, "move 101 bob pw E5", "", bob, 1, &cmd), COMMAND_OK,
	    "senders: a complete command parses as ever");
}

static void test_account_commands(void)
{
	char *m;

	ok_int(subj("forgot Alice"), COMMAND_OK, "forgot");
	ok(command_is(&cmd, "forgot"), "forgot: kind");
	ok_str(cmd.userid, "alice", "forgot: user id folded");
	fails("forgot", COMMAND_USAGE, "forgot needs: forgot <userid>; missing: your user id. Send: forgot <userid>");
	ok_int(subj("reset alice k7m2qx9phd n3w"), COMMAND_OK, "reset");
	ok(command_is(&cmd, "reset"), "reset: kind");
	ok_str(cmd.password, "k7m2qx9phd", "reset: the code as given, in the first password slot");
	ok_str(cmd.new_password, "n3w", "reset: the new password");
	m = command_mask(&cmd);
	ok_str(m, "reset alice **** ****", "mask: reset, the code and the password");
	free(m);
	ok_int(subj("address alice pw Alice@New.Example"), COMMAND_OK, "address");
	ok(command_is(&cmd, "address"), "address: kind");
	ok_str(cmd.new_address, "Alice@New.Example", "address: the new address as given");
	m = command_mask(&cmd);
	ok_str(m, "address alice **** Alice@New.Example", "mask: address, the password");
	free(m);
	fails("address alice pw", COMMAND_USAGE,
	    "address needs: address <userid> <password> <new address>; missing: <new address>. Send: address alice <password> <new address>");
	ok_int(subj("confirm alice K7M2QX9PHD"), COMMAND_OK, "confirm");
	ok(command_is(&cmd, "confirm"), "confirm: kind");
	ok_str(cmd.password, "K7M2QX9PHD", "confirm: the code");
	m = command_mask(&cmd);
	ok_str(m, "confirm alice ****", "mask: confirm, the code");
	free(m);
	ok_int(subj("signoff alice pw"), COMMAND_OK, "signoff");
	ok(command_is(&cmd, "signoff"), "signoff: kind");
	ok_str(cmd.password, "pw", "signoff: the password");
	ok_int(subj("whoami alice pw"), COMMAND_OK, "whoami");
	ok(command_is(&cmd, "whoami"), "whoami: kind");
	fails("whoami alice", COMMAND_USAGE, "whoami needs: whoami <userid> <password>; missing: <userid> or <password>. Send: whoami <userid> <password>");
}

static void test_comment(void)
{
	const char *body;
	char *c, big[5000];
	int i;

	body = "move 101 alice pw E5\n\nNice game!\n  Second line  \n\n\n-- \nAlice\n";
	mailfind_parse(&mailcmd_grammar, "Re: Oust Board 101 alice", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "Nice game!\n  Second line", "comment: after the command line, up to the signature, trimmed");
	free(c);

	body = "I resign, well played.\n";
	mailfind_parse(&mailcmd_grammar, "resign 101 alice pw", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "I resign, well played.", "comment: the whole body when the command is in the subject");
	free(c);

	body = "move 104#5 heidi pw C3\n\nGood game so far.\n\nOn Tue, 14 Nov 2023, Oust server wrote:\n"
	    "> Oust Board 104 heidi\n>\n>     A B C D E\n>  5  . . . . .   5\n-- \nHeidi\n";
	mailfind_parse(&mailcmd_grammar, "Re: Oust Board 104 heidi", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "Good game so far.", "comment: quoted old board and its attribution line dropped");
	free(c);

	body = "move 101 alice pw E5\nI wrote: nothing quoted follows\nbye\n";
	mailfind_parse(&mailcmd_grammar, "", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "I wrote: nothing quoted follows\nbye", "comment: a 'wrote:' line without a quote stays");
	free(c);

	body = "move 101 alice pw E5\r\nctrl\x07 \x1b[1mbold\r\n\tindented\r\n--\r\nsig\r\n";
	mailfind_parse(&mailcmd_grammar, "", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "ctrl [1mbold\n\tindented", "comment: CRLF, control characters removed, '--' ends it");
	free(c);

	body = "move 101 alice pw E5";
	mailfind_parse(&mailcmd_grammar, "", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "", "comment: none");
	free(c);

	for (i = 0; i < 2500; i++)
		memcpy(big + 2 * i, "\xc3\xa9", 2);
	big[5000 - 1] = '\0';
	mailfind_parse(&mailcmd_grammar, "help", big, &cmd);
	c = command_comment(&cmd, big);
	ok_int(strlen(c), 2 * COMMAND_COMMENT_MAX, "comment: cut at %d characters, not bytes", COMMAND_COMMENT_MAX);
	free(c);

	mailfind_parse(&mailcmd_grammar, "help", NULL, &cmd);
	c = command_comment(&cmd, NULL);
	ok_str(c, "", "comment: NULL body");
	free(c);

	/* the command in the Subject, repeated in the body: never passed on */
	body = "move 101 alice s3cret E5\nGood luck!\nmy password is s3cret, oops\n";
	mailfind_parse(&mailcmd_grammar, "move 101 alice s3cret E5", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "Good luck!", "comment: the repeated command and a line holding the password dropped");
	free(c);
	body = "Oust MOVE 101#3 alice E5\nMove fast, Bob.\n";
	mailfind_parse(&mailcmd_grammar, "move 101 alice s3cret E5", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "Move fast, Bob.", "comment: a repetition of the command without the password dropped too");
	free(c);
	body = "password alice old new\nthe old one was old\nand the new one: knew\nfine\n";
	mailfind_parse(&mailcmd_grammar, "Re: password alice old knew", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "fine", "comment: lines holding the old or the new password dropped");
	free(c);
	body = "challenge alice pw bob\nchallenge accepted? pw\nGood game\n";
	mailfind_parse(&mailcmd_grammar, "challenge alice pw bob", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "Good game", "comment: challenge repeated, password line dropped");
	free(c);
	body = "resign 101#9 alice\nsorry\n";
	mailfind_parse(&mailcmd_grammar, "resign 101 alice s3cret", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "sorry", "comment: resign repeated for the same board dropped");
	free(c);
	body = "resign 102 bob\n";
	mailfind_parse(&mailcmd_grammar, "resign 101 alice s3cret", body, &cmd);
	c = command_comment(&cmd, body);
	ok_str(c, "resign 102 bob", "comment: a line about another board is a comment");
	free(c);
}

/* The quote forms of common clients end the comment; a bottom-posted command is still found. */
static void test_quote_forms(void)
{
	static const struct {
		const char *body, *want, *what;
	} cases[] = {
		{ "move 101 alice pw E5\nGood one.\n\n-----Original Message-----\nFrom: Oust <oust@example.net>\n"
		  "Sent: Tuesday\nTo: alice\nSubject: Oust Board 101 alice\n\nmove 101#3 alice <password>\n",
		  "Good one.", "Outlook's Original Message line" },
		{ "move 101 alice pw E5\nGood one.\n\n________________________________\nFrom: Oust <oust@example.net>\n"
		  "Sent: Tuesday, 14 November 2023 23:05\nTo: alice <alice@example.org>\nSubject: Oust Board 101 alice\n"
		  "\nOust board 101\n", "Good one.", "Outlook on the web's underscores and From:/Sent: block" },
		{ "move 101 alice pw E5\nGood one.\n\nFrom: Oust <oust@example.net>\nSent: Tuesday\nTo: alice\n"
		  "Subject: Oust Board 101 alice\n\nOust board 101\n", "Good one.", "Outlook's header block alone" },
		{ "move 101 alice pw E5\nGood one.\n\n*From:* Oust <oust@example.net>\n*Date:* Tuesday\n*To:* alice\n"
		  "\nOust board 101\n", "Good one.", "a bold header block made plain" },
		{ "move 101 alice pw E5\nGood one.\n\nOn Tue, Nov 14, 2023 at 11:05\xe2\x80\xafPM Oust test server <\n"
		  "oust@example.net> wrote:\n\n> Oust board 101\n> x: alice 1/1\n", "Good one.",
		  "Gmail's attribution wrapped before the address" },
		{ "move 101 alice pw E5\nGood one.\n\nOn 14 Nov 2023, at 23:05, Oust <oust@example.net> wrote:\n\n"
		  "Oust board 101\nunquoted\n", "Good one.", "an attribution above an unmarked quote" },
		{ "move 101 alice pw E5\nGood one.\n\nAm Di., 14. Nov. 2023 um 23:05 Uhr schrieb Oust <oust@example.net>:\n"
		  "Oust board 101\n", "Good one.", "Gmail's German attribution" },
		{ "move 101 alice pw E5\nGood one.\n\nLe mar. 14 nov. 2023 \xc3\xa0 23:05, Oust <oust@example.net> a "
		  "\xc3\xa9" "crit :\nOust board 101\n", "Good one.", "Gmail's French attribution" },
		{ "move 101 alice pw E5\nGood one.\n\n---------- Forwarded message ---------\nFrom: Oust\nOust board 101\n",
		  "Good one.", "Gmail's forwarded message line" },
		{ "move 101 alice pw E5\nGood one.\n\nBegin forwarded message:\n\nFrom: Oust\n", "Good one.",
		  "Apple Mail's forwarded message line" },
		{ "move 101 alice pw E5\nOn the next turn I win.\nFrom: here to there\n", "On the next turn I win.\n"
		  "From: here to there", "a line starting 'On' or 'From:' alone is text" },
		{ "On Tue, Nov 14, 2023 at 11:05 PM Oust test server <\noust@example.net> wrote:\n> Oust board 101\n"
		  ">\n\nmove 101 alice pw E5\n\nGood one.\n", "Good one.", "bottom-posted under Gmail's wrapped attribution" },
		{ "On 14 Nov 2023, Oust wrote:\n> board\nmove 101 alice pw E5\n> more board\nanswer between\n",
		  "answer between", "an answer between quoted lines stays" },
	};
	size_t i;
	char *c;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ok_int(mailfind_parse(&mailcmd_grammar, "Re: Oust Board 101 alice", cases[i].body, &cmd), COMMAND_OK,
		    "quote forms: %s: the command is found", cases[i].what);
		c = command_comment(&cmd, cases[i].body);
		ok_str(c, cases[i].want, "quote forms: %s", cases[i].what);
		free(c);
	}
	ok_int(mailfind_parse(&mailcmd_grammar, "", "\n-----Original Message-----\nmove 101 alice pw E5\n", &cmd),
	    COMMAND_EMPTY, "quote forms: a command only in the quoted mail is not read");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "On Tuesday, Oust wrote:\nmove 101 alice pw E5\n", &cmd),
	    COMMAND_EMPTY, "quote forms: nor one under an attribution without '>' quoting");
}

/* An incomplete command in the Subject and the whole command in the body. */
static void test_subject_incomplete(void)
{
	ok_int(mailfind_parse(&mailcmd_grammar, "Oust move", "move 101#2 bob pw D3\nthanks\n", &cmd), COMMAND_OK,
	    "subject incomplete: the body's complete command is used");
	ok_int(cmd.source, COMMAND_FROM_BODY, "subject incomplete: read from the body");
	ok_str(cmd.placements[0].name, "D3", "subject incomplete: its placements");
	ok_int(mailfind_parse(&mailcmd_grammar, "register", "register alice secret Alice Liddell\n", &cmd), COMMAND_OK,
	    "subject incomplete: register in the body");
	ok_str(cmd.fullname, "Alice Liddell", "subject incomplete: register's full name");
	ok_int(mailfind_parse(&mailcmd_grammar, "Re: move", "show 101\n", &cmd), COMMAND_OK,
	    "subject incomplete: whatever complete command the body holds");
	ok_int(mailfind_parse(&mailcmd_grammar, "move 101", "move 101 bob\n", &cmd), COMMAND_USAGE,
	    "subject incomplete: the body's incomplete too");
	ok_int(cmd.source, COMMAND_FROM_BODY, "subject and text incomplete: the text's error");
	ok_int(mailfind_parse(&mailcmd_grammar, "move 101", "Hello Bob\n", &cmd), COMMAND_USAGE,
	    "subject incomplete, text of prose");
	ok_str(cmd.error, "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: your user id, "
	    "your password and <placements> (read from the Subject; the text of the mail was not read as a command). "
	    "Send: move 101 <userid> <password> <placements>",
	    "subject incomplete: the error says the Subject was read, not the text");
	ok_int(mailfind_parse(&mailcmd_grammar, "move 101", NULL, &cmd), COMMAND_USAGE, "subject incomplete: no body");
	ok_str(cmd.error, "move needs: move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject; missing: your user id, "
	    "your password and <placements>. Send: move 101 <userid> <password> <placements>",
	    "subject incomplete: no note without a text");
	ok_int(mailfind_parse(&mailcmd_grammar, "move 101 bob pw Z9", "move 101 bob pw D3\n", &cmd), COMMAND_CONFLICT,
	    "subject and text complete, different: neither runs");
	ok_int(mailfind_parse(&mailcmd_grammar, "move 101 bob pw D3", "Move 101 Bob pw D3.\n", &cmd), COMMAND_OK,
	    "subject and text complete, the same: it runs");
	ok_int(cmd.source, COMMAND_FROM_BODY, "... from the text, its comment after it");
	ok_int(mailfind_parse(&mailcmd_grammar, "move 101 bob pw E55", "move 101 bob pw D3\n", &cmd), COMMAND_CONFLICT,
	    "subject complete but wrong: not replaced by the body");
}

/* Placements sent alone, under a board mail or not. */
static void test_placements_only(void)
{
	char *m;

	ok_int(mailfind_parse(&mailcmd_grammar, "Re: Oust Board 101 bob", "C3\n\n> Oust board 101\n", &cmd), COMMAND_PLACEMENTS_ONLY,
	    "placements only: C3 under a board mail");
	ok_int(cmd.board, 101, "placements only: the board of the Subject");
	ok_int(cmd.nplacements, 1, "placements only: one placement");
	ok_str(cmd.error, "'C3' alone is not a command. Send: move 101 <userid> <password> C3",
	    "placements only: the command to send");
	ok_int(mailfind_parse(&mailcmd_grammar, "Re: [games] AW: Oust Board 205 alice", "c3 d4\n", &cmd), COMMAND_PLACEMENTS_ONLY,
	    "placements only: two, with a space");
	ok_str(cmd.error, "'C3,D4' alone is not a command. Send: move 205 <userid> <password> C3,D4",
	    "placements only: joined by a comma, upper case");
	m = command_mask(&cmd);
	ok_str(m, "c3 d4", "placements only: echoed whole");
	free(m);
	ok_int(mailfind_parse(&mailcmd_grammar, "", "C3, D4\n", &cmd), COMMAND_PLACEMENTS_ONLY, "placements only: no Subject");
	ok_int(cmd.board, 0, "placements only: no board");
	ok_str(cmd.error, "'C3,D4' alone is not a command. Send: move <board>[#turn] <userid> "
	    "<password> C3,D4", "placements only: the command's shape without a board");
	ok_int(mailfind_parse(&mailcmd_grammar, "C3", NULL, &cmd), COMMAND_PLACEMENTS_ONLY, "placements only: in the Subject");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "C3,,D4\n", &cmd), COMMAND_UNKNOWN, "placements only: not a placement list");
	ok_int(mailfind_parse(&mailcmd_grammar, "", "Z99 C3\n", &cmd), COMMAND_UNKNOWN, "placements only: not a placement");
	m = command_mask(&cmd);
	ok_str(m, "Z99 ****", "placements only: an unknown command still masked");
	free(m);
}

static void test_names(void)
{
	subj("move 101 alice pw E5");
	ok_str(command_name(&cmd), "move", "kind name");
	memset(&cmd, 0, sizeof cmd);
	ok_str(command_name(&cmd), "", "kind name of none");
}

/* A keyword of several rows: the first that parses wins; the masking follows the row, or every row. */
static void test_rows(void)
{
	char *m;

	ok_int(subj("subscribe 101 carol pw3"), COMMAND_OK, "subscribe <board> parses");
	ok(cmd.board == 101 && strcmp(cmd.userid, "carol") == 0 && strcmp(cmd.password, "pw3") == 0 &&
	    strcmp(cmd.syntax->slots, "bup") == 0, "... by the board's row");
	m = command_mask(&cmd);
	ok_str(m, "subscribe 101 carol ****", "... the password masked, not the user id");
	free(m);
	ok_int(subj("Subscribe carol pw3 ALL"), COMMAND_OK, "subscribe ... all parses");
	ok(cmd.board == 0 && strcmp(cmd.userid, "carol") == 0 && strcmp(cmd.word, "all") == 0 &&
	    strcmp(cmd.syntax->slots, "upw") == 0, "... by the row of all, the word folded");
	m = command_mask(&cmd);
	ok_str(m, "Subscribe carol **** ALL", "... the password masked");
	free(m);
	ok_int(subj("notify carol pw3 off 102"), COMMAND_OK, "notify with a board");
	ok(cmd.board == 102 && cmd.nboards == 1 && cmd.boards[0] == 102 && strcmp(cmd.word, "off") == 0,
	    "... off, board 102");
	ok_int(subj("notify carol pw3 on"), COMMAND_OK, "notify without a board");
	ok(cmd.board == 0 && cmd.nboards == 0 && strcmp(cmd.word, "on") == 0, "... on, no board");
	ok_int(subj("notify carol pw3 ON 103 101 102"), COMMAND_OK, "notify with several boards");
	ok(cmd.nboards == 3 && cmd.boards[0] == 103 && cmd.boards[1] == 101 && cmd.boards[2] == 102 &&
	    cmd.board == 103 && strcmp(cmd.word, "on") == 0, "... each in the order given, the first as the board");
	m = command_mask(&cmd);
	ok_str(m, "notify carol **** ON 103 101 102", "... the boards echoed, the password masked");
	free(m);
	fails("notify carol pw3 on 101 102 101", COMMAND_BAD_BOARD, "board 101 is given twice");
	ok(cmd.board == 101, "... the board named, for the Subject");
	fails("notify carol pw3 on 101 1x2", COMMAND_BAD_BOARD, "'1x2' is not a board number");
	m = command_mask(&cmd);
	ok(strstr(m, "pw3") == NULL && strstr(m, "101") != NULL, "... the password masked, the good board echoed (%s)",
	    m);
	free(m);
	fails("notify carol pw3 on 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121",
	    COMMAND_USAGE, "notify takes at most 20 boards, not 21");
	fails("notify carol pw3 maybe", COMMAND_USAGE,
	    "notify needs: notify <userid> <password> on|off [board...]; 'maybe' is not on|off");
	m = command_mask(&cmd);
	ok(strstr(m, "pw3") == NULL, "a failed notify: the password masked (%s)", m);
	free(m);
	fails("subscribe 101 carol", COMMAND_USAGE,
	    "subscribe needs: subscribe <userid> <password> all; missing: one of <userid> <password> all. "
	    "Send: subscribe <userid> <password> all");
	m = command_mask(&cmd);
	ok_str(m, "subscribe **** ****", "a short subscribe: a word either row may take for a password is masked");
	free(m);
	ok_int(subj("challenge alice pw *"), COMMAND_OK, "challenge * parses");
	ok(strcmp(cmd.opponent, "*") == 0, "... an open challenge");
	ok_int(subj("accept 101 bob pw"), COMMAND_OK, "accept");
	ok_int(subj("decline 101 bob pw"), COMMAND_OK, "decline");
	ok_int(subj("challenges"), COMMAND_OK, "challenges");
}

int main(void)
{
	test_register_password();
	test_challenge();
	test_move();
	test_placement_cap();
	test_other_commands();
	test_finding();
	test_mask();
	test_senders();
	test_short_forms();
	test_account_commands();
	test_comment();
	test_quote_forms();
	test_subject_incomplete();
	test_placements_only();
	test_names();
	test_rows();
	return t_done();
}
