from django.shortcuts import render

from .models import Table


def lobby(request):
    tables = Table.objects.filter(is_active=True)
    return render(request, "tables/lobby.html", {"tables": tables})
