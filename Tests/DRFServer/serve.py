"""A Django REST framework API for RESTAdapter's tests: DRF's DefaultRouter,
PageNumberPagination, django-filter and TokenAuthentication, as an ordinary DRF project
sets them up. Serves on 127.0.0.1 at a free port, on an in-memory SQLite database (no
file is left behind), and prints "<port> <token of user one> <token of user two>" once it listens.
It exits when its standard input closes (the test's PythonServer watchdog) or after
`--seconds` (default 300).

    python3 Tests/DRFServer/serve.py [--seconds 300]
"""
import os
import sys
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "drfsite.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

call_command("migrate", run_syncdb=True, verbosity=0)

from django.contrib.auth.models import User  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

tokens = [Token.objects.create(user=User.objects.create_user(name)).key for name in ("one", "two")]


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


server = make_server("127.0.0.1", 0, get_wsgi_application(), server_class=Server, handler_class=Quiet)
seconds = int(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 300


threading.Timer(seconds, server.shutdown).start()
print(server.server_address[1], *tokens, flush=True)
server.serve_forever()
