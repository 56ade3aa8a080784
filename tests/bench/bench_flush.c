/*
 * bench_flush: mails per second that `oustpbm flush` delivers over SMTP to
 * a local server, for a batch of 1,000 queued replies.
 *
 * The server is the test sink (tests/smtpd/sink.py, Debian's aiosmtpd on
 * 127.0.0.1).  Per repetition (argv[1], default 5) a scratch home gets 1,000
 * replies of about 1.6 KB queued (not timed), then
 * ./oustpbm -d HOME flush runs as a child process and is timed from fork to
 * exit: reading each queue file, one SMTP transaction per mail over one
 * connection, the move into outbox/sent/.  Two servers are measured:
 *   flush mails_per_s=...        the sink storing every message (two files)
 *   flush discard_mails_per_s=... the sink throwing messages away, so the
 *                                figure is what aiosmtpd's protocol handling
 *                                leaves to oustpbm and libcurl
 *   flush python_cpu_s=...       CPU seconds the storing sink spent in the run
 *   flush oustpbm_cpu_us_per_mail=... CPU time (user + system) of oustpbm
 *                                itself per mail, libcurl included
 * The queue is made once with outbox_enqueue and copied for every run.
 * Run from the top of the tree (run-bench does).
 */
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "base/config.h"
#include "outbox/outbox.h"
#include "store/store.h"

#define MAILS 1000

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Start the sink storing into dir (or discarding); its pid, *port set. */
static pid_t sink_start(const char *dir, bool discard, unsigned *port)
{
	char portfile[600];
	pid_t pid;
	int i;

	snprintf(portfile, sizeof portfile, "%s.port", dir);
	mkdir(dir, 0700);
	unlink(portfile);
	pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		execl("/usr/bin/python3", "python3", "tests/smtpd/sink.py", "--dir", dir, "--portfile", portfile,
		    discard ? "--discard" : "--slow", discard ? NULL : "5", (char *)NULL);
		_exit(127);
	}
	*port = 0;
	for (i = 0; i < 400 && *port == 0; i++) {
		FILE *f = fopen(portfile, "r");

		if (f != NULL) {
			if (fscanf(f, "%u", port) != 1)
				*port = 0;
			fclose(f);
		}
		if (*port == 0)
			usleep(25000);
	}
	return pid;
}

/* CPU seconds of pid so far, from /proc. */
static double cpu_seconds(pid_t pid)
{
	char path[64];
	unsigned long ut = 0, st = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	/* fields 14 and 15: utime, stime (the name in field 2 has no spaces here) */
	for (i = 1; i < 14; i++)
		if (fscanf(f, "%*s") != 0)
			break;
	if (fscanf(f, "%lu %lu", &ut, &st) != 2)
		ut = st = 0;
	fclose(f);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Point home's configuration at port. */
static void set_port(const char *home, unsigned port)
{
	char conf[700];
	FILE *f;

	snprintf(conf, sizeof conf, "%s/oustpbm.conf", home);
	f = fopen(conf, "w");
	if (f == NULL) {
		perror(conf);
		exit(1);
	}
	fprintf(f, "from_address = oust@example.net\nsmtp_url = smtp://127.0.0.1:%u\nhelo_name = bench.example.net\n",
	    port);
	fclose(f);
}

/* home becomes a copy of proto (the queued mails); not timed. */
static void copy_home(const char *proto, const char *home, unsigned port)
{
	char cmd[1000];

	nftw(home, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	snprintf(cmd, sizeof cmd, "cp -a '%s' '%s'", proto, home);
	if (system(cmd) != 0) {
		fprintf(stderr, "bench_flush: %s failed\n", cmd);
		exit(1);
	}
	set_port(home, port);
}

/* Queue MAILS replies in a fresh home with outbox_enqueue. */
static void prepare(const char *home, unsigned port)
{
	char serr[STORE_ERR_MAX], oerr[OUTBOX_ERR_MAX], rcpt[64], msg[2048];
	struct config cfg;
	struct store *st;
	struct outbox *ob;
	int i, n;

	mkdir(home, 0700);
	set_port(home, port);
	config_defaults(&cfg);
	if (store_open(home, &cfg, &st, serr, sizeof serr) != STORE_OK ||
	    outbox_open(st, &ob, oerr, sizeof oerr) != OUTBOX_OK) {
		fprintf(stderr, "bench_flush: %s %s\n", serr, oerr);
		exit(1);
	}
	for (i = 0; i < MAILS; i++) {
		snprintf(rcpt, sizeof rcpt, "player%d@example.org", i);
		n = snprintf(msg, sizeof msg, "From: oustpbm <oust@example.net>\nTo: %s\nSubject: Oust Board %d bob\n"
		    "Message-ID: <bench.%d@example.net>\nMIME-Version: 1.0\n"
		    "Content-Type: text/plain; charset=utf-8\n\n", rcpt, 101 + i, i);
		while (n < 1600)
			n += snprintf(msg + n, sizeof msg - (size_t)n, "  A B C D E F G H J K L\n 1 . x o . . x . o . . .\n");
		if (outbox_enqueue(ob, "oust@example.net", rcpt, msg, (size_t)n) != OUTBOX_OK) {
			fprintf(stderr, "bench_flush: %s\n", outbox_error(ob));
			exit(1);
		}
	}
	outbox_close(ob);
	store_close(st);
}

/* Time one ./oustpbm flush of home; seconds, *cpu the CPU seconds oustpbm used. */
static double flush(const char *home, double *cpu)
{
	double t0 = bench_now();
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl("./oustpbm", "oustpbm", "-d", home, "flush", (char *)NULL);
		_exit(127);
	}
	wait4(pid, &status, 0, &ru);
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	    (double)ru.ru_stime.tv_usec / 1e6;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_flush: oustpbm flush failed\n");
		exit(1);
	}
	return bench_now() - t0;
}

static int count_dir(const char *path)
{
	char cmd[700];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof cmd, "ls '%s' | wc -l", path);
	p = popen(cmd, "r");
	if (p != NULL) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5, r;
	char base[300], home[400], proto[400], store_dir[400], discard_dir[400], sent[500];
	const char *tmpdir = getenv("TMPDIR");
	unsigned sport, dport;
	pid_t spid, dpid;

	snprintf(base, sizeof base, "%s/oustpbm-bench-flush.XXXXXX", tmpdir != NULL ? tmpdir : "/tmp");
	if (mkdtemp(base) == NULL || access("./oustpbm", X_OK) != 0) {
		fprintf(stderr, "bench_flush: run from the top of the tree after make\n");
		return 1;
	}
	snprintf(home, sizeof home, "%s/home", base);
	snprintf(proto, sizeof proto, "%s/proto", base);
	snprintf(store_dir, sizeof store_dir, "%s/stored", base);
	snprintf(discard_dir, sizeof discard_dir, "%s/discarded", base);
	snprintf(sent, sizeof sent, "%s/outbox/sent", home);
	spid = sink_start(store_dir, false, &sport);
	dpid = sink_start(discard_dir, true, &dport);
	if (sport == 0 || dport == 0) {
		fprintf(stderr, "bench_flush: the sink did not start (python3-aiosmtpd?)\n");
		kill(spid, SIGTERM);
		kill(dpid, SIGTERM);
		return 1;
	}
	prepare(proto, sport);
	for (r = 0; r < reps; r++) {
		double t, td, c0, c1, cpu, dcpu;

		copy_home(proto, home, sport);
		c0 = cpu_seconds(spid);
		t = flush(home, &cpu);
		c1 = cpu_seconds(spid);
		if (count_dir(sent) != MAILS)
			fprintf(stderr, "bench_flush: only %d of %d sent\n", count_dir(sent), MAILS);
		copy_home(proto, home, dport);
		td = flush(home, &dcpu);
		printf("flush mails_per_s=%.0f discard_mails_per_s=%.0f python_cpu_s=%.2f oustpbm_cpu_us_per_mail=%.0f\n",
		    MAILS / t, MAILS / td, c1 - c0, (cpu + dcpu) / 2 / MAILS * 1e6);
		fflush(stdout);
	}
	kill(spid, SIGTERM);
	kill(dpid, SIGTERM);
	waitpid(spid, NULL, 0);
	waitpid(dpid, NULL, 0);
	nftw(base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
