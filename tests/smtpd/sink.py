"""SMTP sink for oustpbm's tests: aiosmtpd on 127.0.0.1, one file per message.

Run with Debian's python (/usr/bin/python3, which has python3-aiosmtpd):

    sink.py --dir DIR --portfile FILE [--tls CERT KEY] [--auth USER:PASSWORD]
            [--slow SECONDS] [--port PORT] [--discard]

It listens on 127.0.0.1 only, on PORT or a free port, and writes the port into FILE once
it accepts connections.  Each message is stored byte-exact as DIR/N.eml (the
DATA bytes after dot-unstuffing, CRLF as received) with DIR/N.env beside it,
JSON: mail_from, rcpt_tos, helo, peer port, tls, auth login.  Every
connection appends one line to DIR/connections.

The recipient's local part chooses the answer: rcpt451 / rcpt550 answer RCPT
with 451 / 550; data451 / data550 answer the end of DATA with 451 / 550;
rcpt550ml / data550ml answer RCPT / the end of DATA with a 550 of three
lines (RFC 5321 4.2.1: "550-" twice, then "550 ");
slow waits --slow seconds (default 5) before answering the end of DATA.
With --refuse greeting|ehlo|mail the server refuses the session, not a
recipient: a 554 greeting (then 503 to every command), 550 to EHLO and
HELO, or 530 at MAIL FROM (AUTH required but never offered).
With --discard messages are accepted and thrown away (the benchmark's
server, which then costs only aiosmtpd's protocol handling).
With --tls, STARTTLS is offered and required; with --auth, AUTH (PLAIN,
LOGIN) is required, over TLS only.
"""
import argparse
import asyncio
import json
import os
import signal
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


# aiosmtpd sends the answer as given, then CRLF: the lines before the last
# are joined with CRLF here.
MULTILINE_550 = ("550-5.7.1 The %s is refused: \"policy\" says no.\r\n"
                 "550-5.7.1 See https://sink.test/why?id=42 for the reasons,\r\n"
                 "550 5.7.1 and write to postmaster@sink.test if this is wrong.")


class Sink:
    def __init__(self, directory, slow, discard, refuse=None):
        self.refuse = refuse
        self.dir = directory
        self.slow = slow
        self.discard = discard
        self.n = 0

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        if self.refuse == "ehlo":
            return ["550 5.7.1 no service for you"]
        session.host_name = hostname
        return responses

    async def handle_HELO(self, server, session, envelope, hostname):
        if self.refuse == "ehlo":
            return "550 5.7.1 no service for you"
        session.host_name = hostname
        return "250 {}".format(server.hostname)

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.refuse == "mail":
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0]
        if local == "rcpt451":
            return "451 4.3.0 try again later"
        if local == "rcpt550":
            return "550 5.1.1 no such user"
        if local == "rcpt550ml":
            return MULTILINE_550 % "mailbox rcpt550ml"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        locals_ = [a.split("@", 1)[0] for a in envelope.rcpt_tos]
        if "slow" in locals_:
            await asyncio.sleep(self.slow)
        if "data451" in locals_:
            return "451 4.3.0 not now"
        if "data550" in locals_:
            return "550 5.7.1 refused"
        if "data550ml" in locals_:
            return MULTILINE_550 % "message to data550ml"
        self.n += 1
        if self.discard:
            return "250 2.0.0 discarded"
        name = "%d.%06d" % (os.getpid(), self.n)
        env = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "helo": session.host_name,
            "peer": session.peer[1] if session.peer else None,
            "tls": session.ssl is not None,
            "auth": session.auth_data.login.decode()
            if isinstance(session.auth_data, LoginPassword) else None,
        }
        for ext, data in ((".eml", envelope.original_content), (".env", json.dumps(env).encode())):
            tmp = os.path.join(self.dir, "." + name + ext)
            with open(tmp, "wb") as f:
                f.write(data)
            os.rename(tmp, os.path.join(self.dir, name + ext))
        return "250 2.0.0 stored"


class Refusing(asyncio.Protocol):
    """--refuse greeting: a 554 greeting, 503 to every command but QUIT."""

    def __init__(self, directory):
        self.dir = directory
        self.buf = b""

    def connection_made(self, transport):
        self.transport = transport
        with open(os.path.join(self.dir, "connections"), "a") as f:
            f.write("%s\n" % (transport.get_extra_info("peername")[1],))
        transport.write(b"554 5.3.2 sink.test no service\r\n")

    def data_received(self, data):
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            if line.strip().upper() == b"QUIT":
                self.transport.write(b"221 2.0.0 bye\r\n")
                self.transport.close()
                return
            self.transport.write(b"503 5.5.1 no service\r\n")


class CountingSMTP(SMTP):
    def connection_made(self, transport):
        first = getattr(self, "_counted", None) is None  # STARTTLS makes it again
        super().connection_made(transport)
        if first:
            self._counted = True
            with open(os.path.join(self.event_handler.dir, "connections"), "a") as f:
                f.write("%s\n" % (transport.get_extra_info("peername")[1],))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--portfile", required=True)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--auth")
    ap.add_argument("--slow", type=float, default=5.0)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--discard", action="store_true")
    ap.add_argument("--refuse", choices=("greeting", "ehlo", "mail"))
    a = ap.parse_args()

    handler = Sink(a.dir, a.slow, a.discard, a.refuse)
    ctx = None
    if a.tls:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(a.tls[0], a.tls[1])
    kw = {}
    if a.auth:
        user, password = a.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (isinstance(auth_data, LoginPassword) and auth_data.login == user.encode()
                  and auth_data.password == password.encode())
            return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

        kw = dict(authenticator=authenticator, auth_required=True, auth_require_tls=True)

    def factory():
        if a.refuse == "greeting":
            return Refusing(a.dir)
        return CountingSMTP(handler, hostname="sink.test", tls_context=ctx,
                            require_starttls=ctx is not None, **kw)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(loop.create_server(factory, host="127.0.0.1", port=a.port))
    port = server.sockets[0].getsockname()[1]
    tmp = a.portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, a.portfile)
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    loop.add_signal_handler(signal.SIGINT, loop.stop)
    loop.run_forever()
    server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
