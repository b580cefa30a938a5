"""A URLconf with no `lobby`, as before the tables app has one: pages must still render.

It keeps what base.html needs on every page: the language switcher and the JS catalogue.
"""

from django.urls import include, path
from django.views.generic import TemplateView
from django.views.i18n import JavaScriptCatalog

from accounts.language import set_language

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]
