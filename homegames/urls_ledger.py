"""The pages at /ledger/ (namespace ``ledger``, as they were published): a table's money pages
(``views_report``) and the home games' (``views_home_game``)."""

from django.urls import path

from homegames import views_home_game as views
from homegames import views_payments, views_report

app_name = "ledger"

urlpatterns = [
    path("tables/<str:code>/", views_report.table_report, name="table_report"),
    path("tables/<str:code>/settlement.csv", views_report.table_report_csv, name="table_report_csv"),
    path("tables/<str:code>/paid/", views_report.transfer_paid, name="transfer_paid"),
    path("tables/<str:code>/correct/", views_report.table_correct, name="table_correct"),
    path("home-games/", views.home_game_list, name="home_game_list"),
    path("home-games/new/", views.home_game_new, name="home_game_new"),
    path("home-games/<int:home_game_id>/", views.home_game_detail, name="home_game_detail"),
    path("home-games/<int:home_game_id>/standings.csv", views.home_game_csv, name="home_game_csv"),
    path("home-games/<int:home_game_id>/add-table/", views.home_game_add, name="home_game_add_table"),
    path("home-games/<int:home_game_id>/settle-by/", views.settle_by_view, name="home_game_settle_by"),
    path("home-games/<int:home_game_id>/season/close/", views.season_close_view, name="season_close"),
    path("home-games/<int:home_game_id>/seasons/<int:number>/", views.season_detail, name="season_detail"),
    path("home-games/<int:home_game_id>/season.csv", views.season_csv, name="season_csv_open"),
    path("home-games/<int:home_game_id>/seasons/<int:number>/season.csv", views.season_csv, name="season_csv"),
    path(
        "home-games/<int:home_game_id>/season-transfers/<int:transfer_id>/paid/",
        views.season_transfer_paid,
        name="season_transfer_paid",
    ),
    path("home-games/<int:home_game_id>/season/paid/", views_payments.season_paid_view, name="season_paid"),
    path(
        "home-games/<int:home_game_id>/season-payments/<int:payment_id>/undo/",
        views_payments.season_payment_undo_view,
        name="season_payment_undo",
    ),
    path("join/<str:token>/", views.home_game_join_view, name="home_game_join"),
    path("home-games/<int:home_game_id>/invite/", views.invite_replace_view, name="home_game_invite_replace"),
    path("home-games/<int:home_game_id>/members/<int:user_id>/remove/", views.member_remove_view, name="member_remove"),
    path(
        "home-games/<int:home_game_id>/members/<int:user_id>/co-host/", views.member_co_host_view, name="member_co_host"
    ),
    path("home-games/<int:home_game_id>/seats/<int:seat_id>/claim/", views.seat_claim_view, name="seat_claim"),
    path(
        "home-games/<int:home_game_id>/claims/<int:claim_id>/answer/",
        views.seat_claim_answer_view,
        name="seat_claim_answer",
    ),
]
