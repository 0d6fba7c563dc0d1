"""Settings of an ordinary DRF project: defaults except what the tests need to name."""
SECRET_KEY = "test-only-not-secret"
DEBUG = False  # production behaviour: a slash-less write is a 301 (APPEND_SLASH), not an error page
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
USE_TZ = True
INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "todos",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
ROOT_URLCONF = "drfsite.urls"
# One in-memory database shared by every request thread (a named, shared-cache URI).
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": "file:swiftmodel-drf?mode=memory&cache=shared",
        "OPTIONS": {"uri": True},
        "TEST": {"NAME": "file:swiftmodel-drf?mode=memory&cache=shared"},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 10,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend", "rest_framework.filters.OrderingFilter"],
}
