"""Names compared by their look (the TR 39 skeleton, case-folded) in a unique column, and the
marks of closed and banned accounts.

Existing names that already look alike (say "apex" and a Cyrillic "арех", or "mary" and
"rnary") all stay as they are, and their owners log in as before: the oldest account of each
group gets the plain key, each later one the key followed by "#" and its id (a "#" no name's
skeleton has), so the unique index holds. No new name can take any of their keys. Renaming
one of the later accounts (in the admin) gives it a plain key, which must then be free.
"""

from django.db import migrations, models


def fill_name_keys(apps, schema_editor):
    from accounts.usernames import username_key

    User = apps.get_model("accounts", "User")
    taken: set[str] = set()
    for user in User.objects.order_by("pk").only("pk", "username").iterator():
        key = username_key(user.username)
        if key in taken:
            key = f"{key}#{user.pk}"
        taken.add(key)
        User.objects.filter(pk=user.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_chat_muted"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="ban_reason",
            field=models.TextField(blank=True, editable=False, verbose_name="reason for the ban"),
        ),
        migrations.AddField(
            model_name="user",
            name="banned_at",
            field=models.DateTimeField(
                blank=True,
                editable=False,
                help_text="Staff banned the player: log-in is refused; the chips are kept.",
                null=True,
                verbose_name="banned at",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="closed_at",
            field=models.DateTimeField(
                blank=True,
                editable=False,
                help_text="The player closed the account: the name is replaced, the chips went back to the house.",
                null=True,
                verbose_name="closed at",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=600),
            preserve_default=False,
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="user",
            name="name_key",
            field=models.CharField(editable=False, max_length=600, unique=True),
        ),
    ]
