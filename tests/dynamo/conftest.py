import pytest

from dynamo import convert


@pytest.fixture
def traces(monkeypatch):
    """A list that gets one item (the code's name) per trace of any frame."""
    seen = []
    real = convert.convert_frame

    def counting(fn, *args, **kwargs):
        seen.append(fn.__code__.co_name)
        return real(fn, *args, **kwargs)

    monkeypatch.setattr(convert, "convert_frame", counting)
    return seen
