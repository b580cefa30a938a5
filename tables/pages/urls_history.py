"""URLs of hand histories: a table's hands, one hand's replayer, the downloads (a hand's link
to share it is ``shares``', shares/urls.py)."""

from django.urls import path

from tables.pages import views_history

urlpatterns = [
    path("tables/<str:code>/history/", views_history.table_history, name="table_history"),
    path("tables/<str:code>/history/game.json", views_history.game_export, name="game_export"),
    path("tables/<str:code>/history/game.phhs", views_history.game_phh, name="game_phh"),
    path("tables/<str:code>/history/game.txt", views_history.game_pokerstars, name="game_pokerstars"),
    path("tables/<str:code>/history/<int:number>/", views_history.hand_history, name="hand_history"),
    path("tables/<str:code>/history/<int:number>.json", views_history.hand_export, name="hand_export"),
    path("tables/<str:code>/history/<int:number>.phh", views_history.hand_phh_file, name="hand_phh"),
]
