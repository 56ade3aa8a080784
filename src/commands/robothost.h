/*
 * robothost: a robot host, the robot player's side of robotremote.h.  A
 * home whose oustpbm.conf sets robot_server (the server address whose
 * board mails it answers) and from_address (the robot's address, the
 * server's robot_address) gets the robot's mail through the MTA, piped
 * into `oustpbm -d HOME robot-mail`, and answers each board mail for it
 * with the robot's turn, by mail to robot_server through its transport:
 *   Subject      "Re: " and the board mail's (its token and turn);
 *   In-Reply-To  the board mail's Message-ID;
 *   text         the turn alone: "D4, E5", "swap" or "resign yes";
 *   Auto-Submitted: auto-replied (RFC 3834), which the server exempts.
 * The position is rebuilt from the game record the board mail carries
 * (application/x-oust-game, the server's game file), never from the
 * drawing; the robot thinks as on the server (robot.h: robot_seconds,
 * the record's level, a child process).
 *
 * Never a mail loop: a mail not from robot_server, or from it without a
 * game record (an error reply, any other answer) is logged and never
 * answered; a refusal by the server (the Subject names a board, the text
 * is the server's error) is told to the admin too (alert.h, once an hour
 * a cause).  A record whose board, turn or player to move does not match
 * its Subject, or a (board, turn) already answered (robot-answered/ in
 * the home), is logged and dropped.
 *
 * Capacity: robot_max_thinking thinks at once (robot.h's slots); a board
 * mail beyond the cap is kept in robot-queue/ of the home and answered by
 * `oustpbm robot-mail --queued` (cron, every minute or few), which waits
 * for a slot.  A temporary failure (the home, the think) exits 75: the
 * MTA keeps the mail and delivers it again.
 */
#ifndef OUSTPBM_ROBOTHOST_H
#define OUSTPBM_ROBOTHOST_H

#include "commands/admincmd.h"

#define ROBOTHOST_QUEUE "robot-queue"		/* board mails waiting for a think slot */
#define ROBOTHOST_ANSWERED "robot-answered"	/* per board: the last turn answered */

/* oustpbm robot-mail [--queued]: a mail on standard input, or the queue. */
enum admin_status admin_robot_mail(struct admin *a);

#endif
