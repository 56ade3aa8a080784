/* mailcmd: the table of mail commands (mailcmd.h); what is made from it is cmdtable.c's. */
#include "commands/pipeline/mailcmd.h"

#include "store/ratings.h"

/*
 * One row per command, in the order help lists them.  The slots are
 * mail/command.h's: b board, t board[#turn], u user id, o opponent,
 * p password (or one-time code), a mail address, n a number of games;
 * tails L placements, O options, N full name, C a board class, B boards, * ignored.
 */
const struct mail_command mailcmd_table[] = {
	{ { "register", "register <userid> <password> [full name]", "upN" },
	  MAILCMD_ACCOUNTS | MAILCMD_CHANGE | MAILCMD_AUTH, register_run,
	  "Create your account, bound to the address you write from. A user\n"
	  "id is 1 to 32 letters, digits, '_' or '-'; a password 1 to 64\n"
	  "printable characters without spaces. A code is mailed to where\n"
	  "you write from, and the account is made only when\n"
	  "\"confirm <userid> <code> <password>\" (or a reply to that mail\n"
	  "holding \"<code> <password>\") comes back from there, within a\n"
	  "day, with the password you registered with.",
	  "asks for an account bound to the sender's address: a one-time code is mailed there, and nothing else "
	  "until `confirm`; unconfirmed, it lapses after a day and holds nothing meanwhile (another address may "
	  "register the same user id: the first confirmed wins); another `register` from that address replaces "
	  "it, its code void, and mails a new code (at most 3 an hour to one address, "
	  "`max_pending_per_domain_per_hour` to one domain)" },
	{ { "password", "password <userid> <old password> <new password>", "upp" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, password_run,
	  "",
	  "changes the password" },
	{ { "challenge", "challenge <userid> <password> <opponent>|* [-size=N|-hex[=S]] [-black|-white|-random] "
	    "[-noswap] [-level=N] [-unrated] [-remind=DAYS] [-timeout=DAYS|-clock=D+I/C] [-weekends] [-ladder=ID]", "upoO" },
	  MAILCMD_LOGIN | MAILCMD_ROBOT | MAILCMD_CHANGE, challenge_run,
	  "Start a new board against a registered player, or against robot\n"
	  "(see ROBOT below). The board is N x N points, N odd from 5 to 25\n"
	  "(default 11); with -hex it is Mark Steere's own hexagonal board of\n"
	  "side S, 3 to 10 (default 7: 127 cells; see HEX BOARDS below). You\n"
	  "play Black, who moves first, unless you say -white, or -random.\n"
	  "-noswap turns the swap off. -level=N (1 to 5, default 3) is\n"
	  "robot's strength. Games are rated (Glicko-2, one rating per\n"
	  "board class: small 5x5-9x9, standard 11x11-13x13, large 15x15\n"
	  "and up, and the same three for hex boards) unless you say\n"
	  "-unrated. -remind=DAYS (1 to 365) and -timeout=DAYS (1 to 3650)\n"
	  "set this board's own time to move before a reminder and before\n"
	  "the game is lost on time, instead of the server's; the reminder\n"
	  "must come first. -clock=D+I/C (days, fractions allowed: 3+1.5/5)\n"
	  "gives each player a clock of D days; each turn adds I days, never\n"
	  "past C; a clock at zero loses on time; warnings come as your warn\n"
	  "setting says (see set). -weekends stops the clocks from Saturday\n"
	  "00:00 to Monday 00:00 in the time zone of the player to move (so\n"
	  "does a clock both players' weekends settings ask it of). The\n"
	  "mails say how long the player to move has.\n"
	  "-ladder=ID challenges a player above you on that ladder (see\n"
	  "Tournaments in the players' guide): its boards are the ladder's.",
	  "starts a board (numbers from 101); the challenger is Black unless told otherwise; N odd, 5 to 25, "
	  "default 11; `-hex` a hex-hex board of side S, 3 to 10, default 7; `-level=1..5` (default 3) only "
	  "against `robot`; `-unrated`: the result changes no rating; `-remind=DAYS` (1 to 365), `-timeout=DAYS` "
	  "(1 to 3650): this board's own `remind_days`, `timeout_days` (the reminder before the loss on time), kept in "
	  "its game file; `-clock=D+I/C` (days, fractions allowed: `3+1.5/5`; instead of `-timeout`, not with `-remind`): "
	  "each player starts with D days, each turn adds I, never past C, a clock at zero loses on time, warnings as "
	  "each player's `warn` setting says; `-weekends` (with `-clock`, or both players' `weekends=on`): the clocks stop "
	  "from Saturday 00:00 to Monday 00:00 in the zone of the player to move; every board mail says how long the "
	  "player to move has (each player's clock, in the reader's `timezone`). `*` for an opponent: an open "
	  "challenge, which anyone may `accept`. Refused, saying which limit, beyond `max_open_challenges`, "
	  "`max_challenges_per_hour` or `max_open_boards`. `-ladder=T1`: a ladder game of that tournament, at most "
	  "its reach above, one open each" },
	{ { "accept", "accept <board> <userid> <password>", "bup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_CHANGE, accept_run,
	  "Take an open challenge (challenge ... *): you get its open seat,\n"
	  "within the same limits as a challenge, and the game begins.",
	  "takes the open seat of an open challenge (the limits of a challenge apply); both players get the board" },
	{ { "decline", "decline <board> <userid> <password>", "bup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_CHANGE, decline_run,
	  "Before your first turn on a board: the board is removed and your\n"
	  "opponent told, with the lines after the command as your comment\n"
	  "(the challenger withdraws an open challenge so too).\n"
	  "Once you have played, resign instead.",
	  "removes a board before the sender's first turn on it, the opponent told (with the sender's comment); withdraws an open challenge; "
	  "refused once the sender has played (resign then)" },
	{ { "challenges", "challenges", "*" },
	  0, challenges_run,
	  "The open challenges waiting for a player.",
	  "the server's open challenges, each with its board, size and challenger" },
	{ { "tournament", "tournament <userid> <password> <format> [options] <name words>", "upT" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, tournament_run,
	  "Make a tournament and direct it: <format> is roundrobin, swiss,\n"
	  "knockout or ladder. Options: the board options of challenge\n"
	  "(-size=N, -hex[=S], -noswap, -unrated, -timeout=DAYS...),\n"
	  "-players=MIN-MAX, -double (round robin: each pair twice),\n"
	  "-rounds=N (Swiss; a ladder: games before it ends), -reach=N and\n"
	  "-idle=DAYS (ladder). The reply names its id: T1, T2, ...\n"
	  "The rules are in the players' guide: Tournaments.",
	  "makes a tournament (`roundrobin`, `swiss`, `knockout` or `ladder`), the sender its director; the "
	  "challenge's board options, `-players=MIN-MAX`, `-double`, `-rounds=N`, `-reach=N`, `-idle=DAYS`, "
	  "`-repeat`; ids `T1`, `T2`, ... (any case); at most `max_tournaments_per_director` open or running each" },
	{ { "tournament", "tournament <id>", "i" },
	  0, tournament_show_run,
	  "A tournament: its players, its pairings with their boards, its\n"
	  "table of scores with the tie-breaks and (round robin) the\n"
	  "crosstable.",
	  "a tournament's players, pairings and boards, standings, tie-breaks and crosstable" },
	{ { "tournaments", "tournaments", "*" },
	  0, tournaments_run,
	  "The tournaments open or running.",
	  "the tournaments open or running, one line each" },
	{ { "join", "join <id> <userid> <password> [-robot=N]", "iup*" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, join_run,
	  "Enter an open tournament (a ladder: at its bottom, any time). The\n"
	  "director may enter the robot: -robot=N, level 1 to 5. It begins\n"
	  "by itself when its last place is taken.",
	  "enters a tournament that is open (a ladder: at any time, at the bottom); the director's `-robot=N` enters "
	  "the robot at that level; a full one begins by itself" },
	{ { "withdraw", "withdraw <id> <userid> <password> [player]", "iup*" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, withdraw_run,
	  "Leave a tournament (the director may remove a player). Before\n"
	  "half of your games are played none of your results counts;\n"
	  "after that your unplayed games are lost by forfeit.",
	  "leaves a tournament, or (the director) removes a player: before half of their games every result of theirs "
	  "is annulled, after it their unplayed games are lost by forfeit; their boards resigned, the others told" },
	{ { "begin", "begin <id> <userid> <password>", "iup" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, begin_run,
	  "The director starts the tournament: every player gets the\n"
	  "pairings with their board numbers, then the boards' mails.",
	  "the director starts a tournament: seeded by rating, paired, every board made, every player mailed" },
	{ { "move", "move <board>[#turn] <userid> <password> <placements>|undo|propose|accept|reject", "tupL" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_ROBOT | MAILCMD_CHANGE, move_run,
	  "Your whole turn: its placements in order, joined by commas, as E5\n"
	  "or E5,F6,G7 (on a hex board: d4 or d4,e5,c2). #turn is the number\n"
	  "of the turn you are making (the mails tell you); with it, a mail\n"
	  "delivered twice is not played twice. Instead of placements: undo\n"
	  "asks to take back your last turn (when your opponent has not\n"
	  "answered it yet), propose offers a draw; your opponent answers\n"
	  "with accept or reject. An accepted undo takes the turn back and\n"
	  "you play it again; an accepted draw ends the game drawn (rated as\n"
	  "a draw). An offer lapses when either player makes a turn. robot\n"
	  "neither takes back turns nor agrees draws.",
	  "a whole turn, placements joined by commas: `E5,F5,G6` (hex: `d4,e5`); `#turn` guards against a "
	  "mail applied twice. `undo` asks to take back the sender's last turn (not yet answered), `propose` "
	  "offers a draw; the opponent's `accept` takes the turn back (the sender plays it again) or ends the "
	  "game drawn (rated as a draw), `reject` declines; an offer lapses when either side makes a turn; "
	  "all are noted in the history (not against `robot`)" },
	{ { "swap", "swap <board>[#turn] <userid> <password>", "tup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_ROBOT | MAILCMD_CHANGE, move_run,
	  "White only, as White's first turn (see SWAP below).",
	  "the pie rule, as White's first turn" },
	{ { "resign", "resign <board>[#turn] <userid> <password>", "tup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_ROBOT | MAILCMD_CHANGE, move_run,
	  "",
	  "ends the game; the opponent wins" },
	{ { "preview", "preview <board>[#turn] <placements>", "vL" },
	  0, preview_run,
	  "What a turn would do, without playing it (no password: nothing\n"
	  "changes): the board after each placement that captures and at the\n"
	  "end, and whether the turn would be complete, illegal (which\n"
	  "placement and why) or unfinished, with the legal placements where\n"
	  "it stops. #turn previews that turn of the board's history instead\n"
	  "of the next one. \"preview new <size> <placements>\" tries them on\n"
	  "an empty study board: N (odd, 5 to 25), -hex or -hex=S.",
	  "a dry run of a turn, nothing changed: the board after each capture and at the end, whether the turn "
	  "would be complete, illegal (which placement, why) or unfinished, the legal placements where it stops; "
	  "`#turn` previews that turn of the history; `preview new <size> <placements>` on an empty study board "
	  "(N odd 5 to 25, `-hex`, `-hex=S`)" },
	{ { "moves", "moves <board>", "b" },
	  MAILCMD_BOARD, moves_run,
	  "The legal placements of the player to move, and what each capture\n"
	  "would take; at White's first turn, the swap too when it is allowed.",
	  "the legal placements of the player to move, the capturing ones with the stones they take; the swap "
	  "where it is allowed" },
	{ { "show", "show <board>[#turn]", "t" },
	  MAILCMD_BOARD, show_run,
	  "The board now, or after turn number #turn.",
	  "the board, or the position after that turn" },
	{ { "history", "history <board>", "b" },
	  MAILCMD_BOARD, history_run,
	  "",
	  "every turn of the board" },
	{ { "sgf", "sgf <board>", "b" },
	  MAILCMD_BOARD, sgf_run,
	  "The game record as an SGF file, attached, for any SGF viewer.",
	  "the game record as an SGF file attached to the reply (`oust-101.sgf`, `application/x-go-sgf`), "
	  "for any SGF viewer: see [Game records](#game-records)" },
	{ { "review", "review <board> <userid> <password>", "bup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_CHANGE, review_run,
	  "The robot replays a finished game (or your game in progress\n"
	  "against it) and mails you its review: each turn's chance to win,\n"
	  "the costliest turns with better ones, and an SGF file.",
	  "a review of a finished board (or of the sender's board in progress against the robot): Black's chance "
	  "to win before and after every turn, the mistakes and blunders with the robot's better turns, an SGF "
	  "file with the figures; queued for `oustpbm robot`, at most `max_reviews_per_day`: see "
	  "[Game reviews](#game-reviews)" },
	{ { "subscribe", "subscribe <userid> <password> all", "upw" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, subscribe_all_run,
	  "",
	  "observe every board, those started later too (the home's `watchers` file)" },
	{ { "subscribe", "subscribe <board> <userid> <password>", "bup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_CHANGE, subscribe_run,
	  "Observe a board, or every board: each board mail comes to you as\n"
	  "a read-only view (no move prompt, no players' comments).",
	  "observe a board you do not play: its every mail, as a read-only view (listed in the game file)" },
	{ { "unsubscribe", "unsubscribe <userid> <password> all", "upw" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, unsubscribe_all_run,
	  "",
	  "stops observing every board (boards subscribed one by one stay)" },
	{ { "unsubscribe", "unsubscribe <board> <userid> <password>", "bup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_CHANGE, unsubscribe_board_run,
	  "",
	  "stops observing that board" },
	{ { "unsubscribe", "unsubscribe <token>", "p" },
	  MAILCMD_ACCOUNTS | MAILCMD_CHANGE, unsubscribe_run,
	  "The Subject of the List-Unsubscribe of an observer's mail (your\n"
	  "mail program's unsubscribe button sends it): no password needed,\n"
	  "those mails stop; the account's own address is told.",
	  "from any address, no password: the token of an observer's mail (its `List-Unsubscribe` mailto, RFC 2369, "
	  "and the line in its text) stops what it names, that board or every board; the confirmation goes to the "
	  "account's registered address only; done already is answered as done; a wrong token counts as a wrong "
	  "password (`max_password_failures`)" },
	{ { "notify", "notify <userid> <password> on|off [board...]", "upwB" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, notify_run,
	  "Results only: the final mail of every board that ends, or of the\n"
	  "boards given (at most 20, each once; one refused refuses them\n"
	  "all).",
	  "`on`: the final mail (the result and the whole game) of every board that ends from now on; `off` stops it. "
	  "With boards: the same for each board given (at most 20, boards you do not play, listed in their game "
	  "files), all changed in one reply; an unknown or finished board, or one given twice, refuses the whole "
	  "command naming it" },
	{ { "chat", "chat <board> <userid> <password>", "bup" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_CHANGE, chat_run,
	  "The text of your mail (below the command line, or all of it if\n"
	  "the command is in the Subject; quoted mail cut as for a move's\n"
	  "comment) goes to your opponent on that board, and to its\n"
	  "observers, in the board's thread.",
	  "the mail's text (quoted mail cut, as a move's comment) to the opponent on the board and to its "
	  "observers, in the board's mail thread; the history notes who chatted and when, not the text" },
	{ { "games", "games <userid> [active|next|finished|all]", "uW" },
	  0, games_run,
	  "The boards of a player, and whose turn it is on each: all of them,\n"
	  "or those being played (active), those where it is that player's\n"
	  "move (next), or the finished ones.",
	  "that player's boards and whose turn it is (all counted, the newest 200 listed): `active` being "
	  "played, `next` where it is that player's move, `finished`, `all` (the default)" },
	{ { "finished", "finished", "" },
	  0, finished_run,
	  "The last 20 games to finish on the server, the most recent first.",
	  "the server's last 20 finished games, the most recent first, with their results" },
	{ { "standings", "standings [class]", "C" },
	  0, standings_run,
	  "The rated players of a board class (small, standard, large,\n"
	  "hex-small, hex-standard, hex-large; without one, of every class):\n"
	  "established, provisional and inactive, each by rating, with the\n"
	  "deviation, games, won-lost-drawn, active boards and games sought;\n"
	  "the first 100 of each.",
	  "the rated players of a board class (`small`, `standard`, `large`, `hex-small`, `hex-standard`, "
	  "`hex-large`; without one, of every class), established, provisional and inactive, each by rating, with "
	  "deviation, games, won-lost-drawn, active boards and games sought (the first 100 of each part); an "
	  "unknown class is refused naming the classes" },
	{ { "rating", "rating <userid>", "u" },
	  0, rating_run,
	  "A player's ratings in every class and the latest rated games\n"
	  "(\"rating robot\": each of robot's levels).",
	  "that player's ratings in every class and the 10 latest rated games (`rating robot`: each level of the "
	  "robot)" },
	{ { "seek", "seek <userid> <password> <games>", "upn" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, seek_run,
	  "Say that you want that many more games (0 to 99; 0: no more): the\n"
	  "standings show it to anyone looking for an opponent.",
	  "how many more games the player wants (0 to 99, 0 for none), shown in the standings; kept in "
	  "`<home>/seeking`" },
	{ { "limit", "limit <userid> <password> <games>", "upn" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, limit_run,
	  "Play on at most that many boards at a time (1 to 99; 0: no limit):\n"
	  "a challenge from you or to you past it is refused, saying why. A\n"
	  "limit below the boards you play on now is refused.",
	  "the most boards the player plays on at a time (1 to 99, 0 for no limit): a challenge from or to the "
	  "player past it is refused with the reason; a limit below the boards played now is refused; kept in "
	  "`<home>/limits`" },
	{ { "help", "help", "*" },
	  0, help_run,
	  "This text.",
	  "the commands and the rules" },
	/* reset and confirm: the code in the password slot, checked by the handler under accounts.lock */
	{ { "forgot", "forgot <userid>", "u" },
	  MAILCMD_ACCOUNTS | MAILCMD_CHANGE | MAILCMD_AUTH, forgot_run,
	  "A one-time code is mailed to the address your account is\n"
	  "registered to (never to anyone else); it is good for an hour, and\n"
	  "an account gets at most 3 a day. Then, from any address:",
	  "mails a one-time code to the address the account is registered to, never to the sender; the "
	  "sender's answer is the same whether the account exists or not" },
	{ { "reset", "reset <userid> <code> <new password>", "upp" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, reset_run,
	  "",
	  "sets a new password with that code, from any address; the registered address is told" },
	{ { "address", "address <userid> <password> <new address>", "upa" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE | MAILCMD_AUTH, address_run,
	  "Move your account to a new address: a code is mailed there. Then,\n"
	  "from the new address, within the hour:",
	  "mails a one-time code to the new address; nothing changes yet" },
	{ { "confirm", "confirm <userid> <code>", "up" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, confirm_run,
	  "Until then nothing changes; afterwards the mail of all your boards\n"
	  "goes to the new address, and the old one is told.",
	  "from the new address only: the account moves there (the mail of all its boards with it); the old "
	  "address is told" },
	{ { "confirm", "confirm <userid> <code> <password>", "upp" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, confirm_register_run,
	  "",
	  "of a registration (or a reply to the code's mail holding `<code> <password>`): from the registered "
	  "address only, with the code mailed there and the password the `register` gave, the account is made; "
	  "a wrong code or password counts as a wrong password (`max_password_failures`); a code voided by a "
	  "later `register` is answered as such; when another address's registration of the user id was "
	  "confirmed first, the reply says so and suggests a free one" },
	{ { "confirm", "confirm <code>", "p" },
	  MAILCMD_ACCOUNTS | MAILCMD_CHANGE, confirm_code_run,
	  "",
	  "of a registration without its password (so too `confirm <userid> <code>`, or a reply holding the "
	  "code alone): refused, asking for the password; nothing is checked" },
	{ { "signoff", "signoff <userid> <password>", "up" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, signoff_run,
	  "Close your account: every board you are still playing is resigned\n"
	  "(your opponents are told and win), your finished games stay, and\n"
	  "nobody else can take your user id for a year.",
	  "closes the account: every board still played is resigned (the opponents are told and win), finished "
	  "games stay, the user id is kept from others for `userid_reserve_days` (365)" },
	{ { "queue", "queue <board> <userid> <password> [<their turn> => <your turn>; ...|clear]", "bup*" },
	  MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK | MAILCMD_CHANGE, queue_run,
	  "Conditional turns, while it is your opponent's turn: if they play\n"
	  "exactly <their turn> (placements in order, or swap), <your turn>\n"
	  "is played at once; lines separated by ';', up to 20. Any other\n"
	  "turn drops the whole queue. Without a list: shows yours; clear\n"
	  "drops it. Your opponent never learns what you queued.",
	  "conditional turns, sent while it is the opponent's turn: when the opponent plays exactly `<their "
	  "turn>` (placements in order, or `swap`), `<your turn>` is played in the same delivery and both are "
	  "told it was queued; any other turn drops the queue (its owner is told); each line checked at once; "
	  "up to 20 lines; alone it lists the queue, `clear` drops it; the opponent never sees it" },
	{ { "vacation", "vacation <userid> <password> <days>|off|<from> <to>|cancel <from>", "upT" },
	  MAILCMD_LOGIN | MAILCMD_ACCOUNTS | MAILCMD_CHANGE, vacation_run,
	  "Away for that many days from now, or booked ahead from <from> to\n"
	  "<to> (YYYY-MM-DD, your time zone; at most 3 booked): your clocks\n"
	  "stop meanwhile. The days come from your vacation bank: a day for\n"
	  "every 12 as a member, at most 30. off ends it early, cancel <from>\n"
	  "drops a booking; both give the days not begun back.",
	  "the sender is away for that many days from now, or books an absence ahead from `<from>` 00:00 to the "
	  "end of `<to>` (dates YYYY-MM-DD in the sender's `timezone`; at most 3 booked): the clocks of the boards "
	  "where the sender is to move stop (no reminder, no loss on time; the absence is counted out); the days "
	  "come from the sender's vacation bank (a day for every `vacation_accrual_days` (12) days as a member, at "
	  "most `vacation_max_days` (30)); the opponents are told of `<days>` and `off`; `off` ends an absence "
	  "early and `cancel <from>` drops a booking, giving back the whole days not begun" },
	{ { "set", "set <userid> <password> <key>=<value> ...", "upT" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, set_run,
	  "Your settings, one or more key=value: timezone=Europe/Paris (an\n"
	  "IANA zone: the times of your mails, weekends, digest hours; UTC\n"
	  "by default), digest=off|daily@HH|twice@HH,HH (one mail listing\n"
	  "the boards waiting for you instead of one per turn), warn=72h,24h\n"
	  "(deadline warnings when your clock passes each mark, at most 5, or\n"
	  "off; default 24h), weekends=on|off (clocks stop at weekends on\n"
	  "boards where both players ask it), queued_mail=on|off (a mail when\n"
	  "your own queued turn answers at once).",
	  "the sender's settings, `key=value` pairs, all checked before any is kept (one bad pair refuses them all, "
	  "naming it): `timezone` (an IANA zone of the system's zoneinfo, default UTC), `digest` (`off`, "
	  "`daily@HH`, `twice@HH,HH`), `warn` (deadline warnings, hours or days left: `72h,24h,4h`, at most 5, or "
	  "`off`; default `24h`), `weekends` (`on`/`off`), `queued_mail` (`on`/`off`); kept in `<home>/settings`" },
	{ { "settings", "settings <userid> <password>", "up" },
	  MAILCMD_LOGIN, settings_run,
	  "Your settings, each with what it does.",
	  "the sender's settings, each with what it does" },
	{ { "tokens", "tokens <userid> <password> new|off", "upw" },
	  MAILCMD_LOGIN | MAILCMD_CHANGE, tokens_run,
	  "Every board mail to you carries a reply token in its Subject: a\n"
	  "reply from your address with your placements alone (D4, or\n"
	  "D3,F6), swap, resign yes, undo, propose, accept, reject, queue\n"
	  "..., or an answer to a chat mail, plays on that board without\n"
	  "your password; in the HTML board, tap a point. Whoever you\n"
	  "forward a board mail to gets its token too. new ends every token\n"
	  "given so far (a new password does too); off turns them off.",
	  "ends every reply token of the account given so far (`new`: the next board mails carry new ones) or turns "
	  "them off (`off`, until the next `new`); a new password or a `reset` ends them too. A reply token in a "
	  "board mail's Subject lets a reply from the player's registered address play on that board without "
	  "the password: see [Playing by reply](#playing-by-reply)" },
	{ { "whoami", "whoami <userid> <password>", "up" },
	  MAILCMD_LOGIN, whoami_run,
	  "Your registered address, full name, the boards you are playing\n"
	  "and your ratings.",
	  "the registered address, the full name, the boards being played and the player's ratings with the "
	  "latest rated games" },
};

const size_t mailcmd_count = sizeof mailcmd_table / sizeof mailcmd_table[0];

static const char *class_name(int c)
{
	return ratings_class_name((enum ratings_class)c);
}

static const char *class_sizes(int c)
{
	return ratings_class_sizes((enum ratings_class)c);
}

/* The board classes of a 'C' tail (standings): the ratings' own. */
static const struct command_classes classes = { RATINGS_NCLASSES, class_name, class_sizes };

const struct command_grammar mailcmd_grammar = {
	&mailcmd_table[0].syntax, sizeof mailcmd_table / sizeof mailcmd_table[0], sizeof mailcmd_table[0], &classes
};

/* The mails without a keyword: reached through the table too, never called by name. */
static const struct mail_bare bare[] = {
	{ COMMAND_PLACEMENTS_ONLY, coordinates_run },
	{ COMMAND_CHAT_ANSWER, chatanswer_run },
};

const struct cmdtable mailcmd_commands = {
	mailcmd_table, sizeof mailcmd_table / sizeof mailcmd_table[0], bare, sizeof bare / sizeof bare[0],
	&mailcmd_grammar
};
