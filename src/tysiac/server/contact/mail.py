"""Outgoing mail to the operator over SMTP: the contact relay, later the daily statistics.

``send_mail`` hands one message to the configured SMTP server (STARTTLS, implicit TLS
or plain, with an optional login) from ``settings.sender`` to ``operator_email`` and
raises ``MailError`` when it cannot. Nothing about a message, the server's reply or
the login is logged beyond the kind of failure.
"""

from __future__ import annotations

import logging
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import aiosmtplib

from tysiac.server.config import Settings

log = logging.getLogger(__name__)

TIMEOUT = 20.0  # seconds for each step of the SMTP conversation


class MailError(Exception):
    """The message was not accepted by the SMTP server (or mail is not configured)."""


def mail_configured(settings: Settings) -> bool:
    return bool(settings.smtp_host and settings.operator_email and settings.sender)


def pgp_mime(armored: str) -> EmailMessage:
    """An RFC 3156 multipart/encrypted body around an armored OpenPGP message, unchanged."""
    message = EmailMessage()
    message["Content-Type"] = 'multipart/encrypted; protocol="application/pgp-encrypted"'
    message.preamble = "This is an OpenPGP/MIME encrypted message (RFC 3156)."
    control = EmailMessage()
    control["Content-Type"] = "application/pgp-encrypted"
    control["Content-Description"] = "PGP/MIME version identification"
    control.set_payload("Version: 1\n")
    data = EmailMessage()
    data["Content-Type"] = 'application/octet-stream; name="encrypted.asc"'
    data["Content-Description"] = "OpenPGP encrypted message"
    data["Content-Disposition"] = 'inline; filename="encrypted.asc"'
    data.set_payload(armored if armored.endswith("\n") else armored + "\n")
    message.attach(control)
    message.attach(data)
    return message


async def send_mail(
    settings: Settings, subject: str, content: str | EmailMessage, now: datetime
) -> None:
    """Send ``content`` (plain text, or a prepared message without addresses) to the operator."""
    if not mail_configured(settings):
        raise MailError("mail is not configured")
    assert settings.smtp_host is not None and settings.operator_email is not None
    sender = settings.sender
    assert sender is not None
    if isinstance(content, str):
        message = EmailMessage()
        message.set_content(content)
    else:
        message = content
    for header in ("Subject", "From", "To", "Date", "Message-ID"):
        del message[header]
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = settings.operator_email
    message["Date"] = format_datetime(now)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2])
    password = settings.smtp_password
    try:
        await aiosmtplib.send(
            message,
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username,
            password=password.get_secret_value() if password is not None else None,
            use_tls=settings.smtp_security == "tls",
            start_tls=settings.smtp_security == "starttls",
            timeout=TIMEOUT,
        )
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as error:
        code = getattr(error, "code", None)
        log.warning(
            "mail to the operator failed: %s%s",
            type(error).__name__,
            f" (SMTP {code})" if isinstance(code, int) else "",
        )
        raise MailError(type(error).__name__) from None
