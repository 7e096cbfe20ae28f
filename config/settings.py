"""Settings, all read from the environment through django-environ.

Two deployments share this file:
- the embedded default (no DATABASE_URL, no REDIS_URL): a SQLite file, the
  in-process channel layer and an in-memory Celery broker, so the app runs
  with no server at all;
- production (DATABASE_URL=postgres://..., REDIS_URL=redis://...): PostgreSQL,
  channels-redis and Celery on Redis.
"""

from datetime import timedelta
from pathlib import Path

import environ
import jinja2
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

from config.backends import caches, channel_layers
from config.catalogue import compiled_locale_paths

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
# Sessions, password resets and CSRF tokens are signed with SECRET_KEY: the published
# development key would let anyone forge a session, so only DEBUG=1 may fall back to it.
DEVELOPMENT_SECRET_KEY = "insecure-embedded-default-key-set-SECRET_KEY-in-production"
SECRET_KEY = env.str("SECRET_KEY", default="") or DEVELOPMENT_SECRET_KEY
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "Set SECRET_KEY to a long random value (python -c 'from django.core.management.utils import "
        "get_random_secret_key as k; print(k())'): with DEBUG=0 the development key is refused. "
        "DEBUG=1 (scripts/run) runs without one."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "csp",
    "accounts",
    "cashier",
    "tables",
    "operations",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the player's own (accounts.languages, below), else the cookie, else the browser's.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.languages.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes documents: they turn a refused log-in into a response.
    "accounts.middleware.LoginThrottleMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "operations.context_processors.room_maintenance",  # read only by a page that shows it
                "cashier.context_processors.header_chips",  # the bankroll in every page's header
            ],
            "builtins": ["config.template_filters"],  # |chips, |signed_chips
        },
    },
    {
        # The HTML fragments pushed over websockets (tables/presentation/fragments.py).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "fragments",
        "DIRS": [BASE_DIR / "templates" / "fragments"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja2.environment", "undefined": jinja2.StrictUndefined},
    },
]

# --- Database -------------------------------------------------------------
# IMMEDIATE transactions and WAL keep the embedded SQLite file from failing
# with "database is locked" when a read transaction later wants to write.
SQLITE_PATH = VAR_DIR / "poker.sqlite3"
# An empty DATABASE_URL means the embedded default too.
DATABASES = {"default": env.db_url_config(env.str("DATABASE_URL", default="") or f"sqlite:///{SQLITE_PATH}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(exist_ok=True)
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
else:
    # Lets parallel test runs on one server use separate test databases.
    DATABASES["default"]["TEST"] = {"NAME": env.str("TEST_DATABASE_NAME", default=None)}
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # The same backend, with a health check that makes no round trip while the server is
        # silent (config/postgresql/base.py).
        DATABASES["default"]["ENGINE"] = "config.postgresql"
    # Every statement sent with its parameters apart (not quoted into its text in Python) and
    # prepared on its connection once it has run twice: parsed and planned once per connection.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 2)
    DATABASES["default"]["OPTIONS"].setdefault("server_side_binding", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth -----------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # An address past LOGIN_FAILURE_RATE gets no password checked (accounts/throttles.py).
    "accounts.backends.LoginThrottleBackend",
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sessions read through the cache (kept in the database): table sockets check one on each frame that changes something.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# Repeated wrong passwords lock the username out for a while (django-axes).
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
# Lock a username from the address that keeps failing, never the username alone: nobody
# can lock another player out from everywhere by typing wrong passwords for them.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "config.client_ip.client_ip"
AXES_USERNAME_CALLABLE = "accounts.throttles.axes_username"
AXES_USERNAME_FORM_FIELD = "username"  # django-axes' default (the user model's USERNAME_FIELD), typed

# Per-address limits, counted in the cache (accounts/throttles.py, django-ratelimit's
# notation: "5/h", "20/15m"). A password spray over many usernames from one address is
# slowed by LOGIN_FAILURE_RATE; successful log-ins are not counted.
SIGNUP_RATE = env.str("SIGNUP_RATE", default="5/h")
LOGIN_FAILURE_RATE = env.str("LOGIN_FAILURE_RATE", default="20/15m")
RATELIMIT_IP_META_KEY = "config.client_ip.client_ip"
# django_ratelimit is used as a library, not an installed app: its system check calls
# Django's own RedisCache "not officially supported" and the embedded default's
# local-memory cache "not shared", though one process is all the embedded default has.

# --- Play money -----------------------------------------------------------
CHIPS_SIGNUP_GRANT = env.int("CHIPS_SIGNUP_GRANT", default=10_000)
CHIPS_RELOAD_BELOW = env.int("CHIPS_RELOAD_BELOW", default=1_000)
CHIPS_RELOAD_EVERY = timedelta(hours=env.float("CHIPS_RELOAD_EVERY_HOURS", default=6))

# --- Table chat -------------------------------------------------------------
CHAT_MAX_CHARS = env.int("CHAT_MAX_CHARS", default=200)
# Messages one player may send, over every table, per window: "N/s", "N/m", "N/h", or e.g. "5/10s".
CHAT_RATE = env.str("CHAT_RATE", default="5/10s")
CHAT_RETENTION_HOURS = env.int("CHAT_RETENTION_HOURS", default=24)
CHAT_RECENT_LINES = env.int("CHAT_RECENT_LINES", default=50)  # shown on (re)connecting

# Seconds the first player on a full table's waiting list has to take a seat that frees.
WAITING_LIST_OFFER_SECONDS = env.int("WAITING_LIST_OFFER_SECONDS", default=30)

# --- Real time and tasks --------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# "pubsub" or "lists": channels-redis's pub/sub layer or its list layer (config/backends.py).
CHANNEL_LAYER = env.str("CHANNEL_LAYER", default="pubsub")
CHANNEL_LAYERS = channel_layers(REDIS_URL, CHANNEL_LAYER)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT = "config.celery_broker:Transport"  # survives a Redis restart
else:
    # One process serves everything: an in-memory broker, tasks run where they are sent.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
# The cache holds short-lived counters (rate limits, open sockets): Redis in production, this process's
# memory on the embedded default. CACHE_URL may name a Redis database of its own (the tests clear theirs).
CACHE_URL = env.str("CACHE_URL", default=REDIS_URL)
CACHES = caches(CACHE_URL)
# Without Redis there is no beat process: the server runs the table clock itself.
EMBEDDED_CLOCK = env.bool("EMBEDDED_CLOCK", default=not REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
# The worker's connections kept from task to task, closed as Django closes a request's (config/celery.py).
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_TIMEZONE = "UTC"
# No task is acknowledged late, so none is lost with a broker connection; saying so keeps
# Celery 5's deprecation warning about it out of the logs.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BEAT_SCHEDULER = "config.beat_schedule:ClockScheduler"  # Celery's, without its busy wait
# The table clock: expire overdue turns and start due hands, every second (RULES 6).
CELERY_BEAT_SCHEDULE = {
    "table-clock": {"task": "tables.tasks.tick", "schedule": 1.0, "options": {"expires": 5}},
    "chat-pruning": {"task": "tables.tasks.prune_chat", "schedule": 3600.0, "options": {"expires": 600}},
}

# --- I18n, static ---------------------------------------------------------
LANGUAGE_CODE = "en"
# The room's languages; adding one: README "Adding a language".
LANGUAGES = [("en", "English"), ("es", "Español")]
# The .mo files are compiled from the .po files here, in Python, when missing or older
# (config/catalogue.py): every process of every deployment speaks every language.
LOCALE_PATHS = compiled_locale_paths(BASE_DIR / "locale")
# Chips are written as each language's rooms write them ("1.000" in Spanish): config/formats.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
if DEBUG:
    # WhiteNoise serves from the finders in development; an empty root keeps it quiet.
    Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)

# --- Production hardening (manage.py check --deploy is clean with DEBUG=0) --
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)  # a year
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): everything from this origin, no inline script, no
# eval (templates/base.html also tells htmx not to try), websockets to this origin only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "connect-src": [SELF],
        "img-src": [SELF, "data:"],
        # 'unsafe-inline' for styles only: the table page's layout, seen from the viewer's
        # seat, arrives over the websocket as a <style id="felt-view"> element rendered once
        # for all of that player's sockets, so it cannot carry a per-page nonce. Inline
        # styles cannot run code.
        "style-src": [SELF, UNSAFE_INLINE],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        # The web app manifest (config/views.py), for adding the room to a home screen.
        "manifest-src": [SELF],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Django's own console handler (DEBUG only) beside the root's printed each django.* line
    # twice: they go to the root's handler alone (no ADMINS are set, so mail_admins sent nothing).
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}
# LOG_FORMAT=json: one JSON object per line (docs/operations.md), with table_id, hand_id,
# player_id on the lines that concern one; Celery then logs through the same handler.
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT == "json":
    LOGGING["formatters"] = {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger", "process": "pid"},
            "timestamp": False,
        }
    }
    LOGGING["handlers"]["console"]["formatter"] = "json"
    CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Checks run by `manage.py audit_chips` beyond the ledger's own.
CHIP_AUDITS: list[str] = ["tables.audit.table_escrow_problems", "tables.audit.seat_occupancy_problems"]
CHIP_AUDITS += ["tournaments.audit.tournament_problems"]  # tournaments: their prize pools and chips (RULES 8.1)
# Chips held outside the bankroll (a reload counts them): {user id: chips} (cashier.selectors.chips_held).
CHIP_HOLDINGS: list[str] = ["tables.selectors.chips.chips_at_tables"]

# A form's request id (accounts/request_ids.py) is refused after this many seconds.
REQUEST_ID_MAX_AGE = env.int("REQUEST_ID_MAX_AGE", default=12 * 3600)

# --- Websocket limits (tables/realtime/socket_guard.py) ----------------------------------
WEBSOCKET_MAX_PER_USER = env.int("WEBSOCKET_MAX_PER_USER", default=8)
WEBSOCKET_MAX_PER_IP = env.int("WEBSOCKET_MAX_PER_IP", default=50)
WEBSOCKET_FRAME_BURST = env.int("WEBSOCKET_FRAME_BURST", default=10)
WEBSOCKET_FRAMES_PER_SECOND = env.float("WEBSOCKET_FRAMES_PER_SECOND", default=3)
# Threads of each server process that read the screens sockets show on connecting, and that apply
# the sockets' frames, a table's always on the same one (tables/realtime/snapshot_threads.py, action_threads.py).
SNAPSHOT_THREADS = env.int("SNAPSHOT_THREADS", default=4)
ACTION_THREADS = env.int("ACTION_THREADS", default=4)
# How long a server process's thread may hold the GIL while another asks (Python's: 5 ms): an
# action thread asks on each return from PostgreSQL, behind the loop's bursts (config/asgi.py).
GIL_SWITCH_SECONDS = env.float("GIL_SWITCH_SECONDS", default=0.001)
# Work a server process has in flight (sockets opening, frames being served) past which it refuses
# watchers' new sockets with 1013; seated players' up to twice this (tables/realtime/admission.py).
WEBSOCKET_MAX_IN_FLIGHT = env.int("WEBSOCKET_MAX_IN_FLIGHT", default=64)
# Tables a server process serves at once (0: no bound): past them a socket for another table is
# refused with 1013 before any work, so past saturation the tables taken stay at full speed
# (tables/realtime/admission.py). Set it from the load sweep: one process's tables at saturation.
WEBSOCKET_MAX_TABLES = env.int("WEBSOCKET_MAX_TABLES", default=100)
# The pace at which the pages of tables a server process sheds may come back, per second (0:
# each asked for a fixed 30 s): every try is a whole handshake, paid from the cores the served
# tables need, so their waits are spread to keep to this pace (tables/realtime/refusals.py).
WEBSOCKET_SHED_RETRIES_PER_SECOND = env.float("WEBSOCKET_SHED_RETRIES_PER_SECOND", default=10)
# The garbage collector's thresholds in each server process, "gen0,gen1,gen2" (empty: CPython's
# 700,10,10). A full collection stops every socket of the process while it walks the objects (a
# few hundred milliseconds with a thousand sockets): these make it minutes apart, not seconds;
# what a process loaded at start is kept out of every collection (operations/gc_pauses.py).
WEB_GC_THRESHOLDS = tuple(env.list("WEB_GC_THRESHOLDS", cast=int, default=[1000, 20, 2000]))
WEB_GC_TUNING = env.bool("WEB_GC_TUNING", default=True)  # 0: neither the thresholds nor the freeze

# Pause between the end of a hand and the start of the next, so players see the result.
HAND_PAUSE_SECONDS = env.float("HAND_PAUSE_SECONDS", default=4)

# --- Fair dealing (docs/fair-dealing.md) ------------------------------------
# Hours after a hand ends before its full reveal (server seed, contributions, every card's
# salt) is published to its players; "never" keeps it for staff only. Staff see it at once.
_reveal_after = env.str("FAIR_DEAL_REVEAL_AFTER_HOURS", default="24").strip().lower()
FAIR_DEAL_REVEAL_AFTER = None if _reveal_after == "never" else timedelta(hours=float(_reveal_after))

# --- Running the room (operations/, docs/operations.md) ---------------------
# /metrics answers staff and these networks (the address daphne sees: behind the proxy, the
# forwarded client's; scrape each daphne directly, and keep /metrics off the proxy).
METRICS_ALLOWED_NETWORKS = env.list("METRICS_ALLOWED_NETWORKS", default=["127.0.0.1/32", "::1/128"])
# A Celery worker's or beat's own metrics port (0: none), on this address.
METRICS_PORT = env.int("METRICS_PORT", default=0)
METRICS_ADDRESS = env.str("METRICS_ADDRESS", default="127.0.0.1")
# The load balancer's checks answer over plain HTTP too.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
# --- Closing and banning accounts (accounts/closing.py) -----------------------------------
# Called, in the closing's transaction, as step(user=..., closing=..., placeholder=...): the
# tables app stands the player up everywhere (the accounts app knows nothing of tables).
ACCOUNT_DEPARTURE_STEPS: list[str] = [
    "tournaments.departure.refuse_while_entered",  # first: no refund or prize owed to a closed bankroll
    "tables.services.departure.leave_every_table",
]
# Files of a player's data download besides the profile and the ledger: functions of a user
# returning (name, text) pairs (the tables app adds the hands, as exports, and the chat lines).
ACCOUNT_DATA_FILES: list[str] = ["tables.history.personal_data.personal_data_files"]
# Data downloads one player may make (django-ratelimit's notation).
ACCOUNT_DATA_RATE = env.str("ACCOUNT_DATA_RATE", default="5/h")

# --- E-mail: address verification and password resets (accounts/emails.py) ---------------------
# EMAIL_URL: "consolemail://" (the default: mails are printed on the server's console) or, in
# production, e.g. "smtp+tls://user:password@smtp.example.com:587" (also smtp+ssl://, smtp://).
vars().update({key: value for key, value in env.email_url("EMAIL_URL", default="consolemail://").items() if value})
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Omaha Room <noreply@localhost>")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# Seconds a verification link stays valid (3 days); a reset link: Django's PASSWORD_RESET_TIMEOUT.
EMAIL_VERIFICATION_MAX_AGE = env.int("EMAIL_VERIFICATION_MAX_AGE", default=3 * 24 * 3600)
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=24 * 3600)
# Password-reset requests per client address (answered 429 past it), and reset mails per
# account (past it, no mail is sent, and the page says the same as always).
PASSWORD_RESET_RATE = env.str("PASSWORD_RESET_RATE", default="5/h")
PASSWORD_RESET_ACCOUNT_RATE = env.str("PASSWORD_RESET_ACCOUNT_RATE", default="3/h")

# --- Integrity of the cash game (RULES 7.5; issue items) ------------------------------
# A player who leaves a table and sits down at it again within this many minutes buys in for
# at least the stack they left with and keeps the time bank they left with (RULES 7.5).
RETURN_TO_TABLE_MINUTES = env.float("RETURN_TO_TABLE_MINUTES", default=30)
# The whole-history downloads: one at a time per player, and at most this many an hour.
HISTORY_DOWNLOADS_PER_HOUR = env.int("HISTORY_DOWNLOADS_PER_HOUR", default=10)
