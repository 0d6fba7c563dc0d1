import django_filters
from rest_framework import serializers, viewsets

from .models import Todo


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "title", "done", "priority", "due", "created_at", "updated_at"]
        read_only_fields = ["created_at", "updated_at"]


class NumberInFilter(django_filters.BaseInFilter, django_filters.NumberFilter):
    pass


class TodoFilter(django_filters.FilterSet):
    priority__in = NumberInFilter(field_name="priority", lookup_expr="in")

    class Meta:
        model = Todo
        fields = {"done": ["exact"], "priority": ["exact", "gte", "lte", "gt", "lt"], "title": ["exact"]}


class TodoViewSet(viewsets.ModelViewSet):
    """Each user sees and writes their own todos (row scope by owner)."""

    serializer_class = TodoSerializer
    filterset_class = TodoFilter
    ordering_fields = ["id", "title", "priority", "due"]

    def get_queryset(self):
        return Todo.objects.filter(owner=self.request.user)

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)
