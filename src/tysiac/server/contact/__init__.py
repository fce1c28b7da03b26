"""The contact form: the browser encrypts, the server checks and relays (``routes``).

- ``routes``: ``/api/contact``, ``/klucz.asc`` and the Web Key Directory;
- ``openpgp``: the operator's key read and checked (pysequoia), and the small reader that
  checks a relayed message is encrypted to it;
- ``mail``: SMTP sending, also of the daily statistics;
- ``operator_key``: the operator's key file, read and checked when the server starts.
"""
