"""Property test: random programs from a grammar of the supported features.

Each program is straight Python over NumPy arrays with branches and loops on Python
values, helper calls, closures, lists, dicts, comprehensions and tuple unpacking. It
must compile to one graph with no break and give exactly eager's results.
"""

import textwrap

import numpy as np
from harness import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CONSTS = ["0.5", "2.0", "-1.0", "3"]


@st.composite
def programs(draw):
    arrays = ["x", "y"]
    lines: list[str] = []
    counter = iter(range(1000))

    def fresh() -> str:
        return f"v{next(counter)}"

    def expr(depth=0) -> str:
        a = draw(st.sampled_from(arrays))
        if depth > 1:
            return a
        kind = draw(st.integers(0, 10))
        b = expr(depth + 1)
        c = draw(st.sampled_from(CONSTS))
        return [
            f"({a} + {b})", f"({a} * {c})", f"np.tanh({b})", f"np.maximum({a}, {c})",
            f"({a} - {a}.mean(axis=1, keepdims=True))", f"helper({b})", f"({a} ** 2)",
            f"np.where({a} > 0, {a}, {c})", f"({a} @ W)", f"scale({b}, k={c})",
            f"({b} / (1.0 + np.abs({a})))",
        ][kind]

    def statement(indent: int, depth: int):
        pad = "    " * indent
        kind = draw(st.integers(0, 9 if depth < 2 else 4))
        if kind <= 2:
            name = fresh()
            lines.append(f"{pad}{name} = {expr()}")
            arrays.append(name)
        elif kind == 3:
            lines.append(f"{pad}acc.append({expr()})")
        elif kind == 4:
            lines.append(f"{pad}table[{draw(st.sampled_from(['a', 'b']))!r}] = {expr()}")
        elif kind == 5:
            cond = draw(st.sampled_from(["k > 1", "k == 2", "flag", "not flag", "k in (1, 3)"]))
            lines.append(f"{pad}if {cond}:")
            name = fresh()
            lines.append(f"{pad}    {name} = {expr()}")
            lines.append(f"{pad}else:")
            lines.append(f"{pad}    {name} = {expr()}")
            arrays.append(name)
        elif kind == 6:
            name = draw(st.sampled_from(arrays))
            lines.append(f"{pad}for i in range(k):")
            lines.append(f"{pad}    {name} = {name} * 0.5 + i")
        elif kind == 7:
            a, b = fresh(), fresh()
            lines.append(f"{pad}{a}, {b} = {expr()}, {expr()}")
            arrays.extend([a, b])
        elif kind == 8:
            name = fresh()
            lines.append(f"{pad}{name} = sum([{expr()} * j for j in range(2)])")
            arrays.append(name)
        else:
            name = fresh()
            lines.append(f"{pad}def inner(z, c={draw(st.sampled_from(CONSTS))}):")
            lines.append(f"{pad}    return z * c + {draw(st.sampled_from(arrays))}")
            lines.append(f"{pad}{name} = inner({expr()})")
            arrays.append(name)

    for _ in range(draw(st.integers(1, 6))):
        statement(1, 0)
    ret = draw(st.sampled_from(["tuple", "list", "dict", "single"]))
    last = arrays[-1]
    result = {"tuple": f"({last}, x, len(acc))", "list": f"[{last}] + acc",
              "dict": f"dict(table, out={last})", "single": f"{last} + sum(acc, 0.0)"}[ret]
    body = "\n".join(lines)
    return (f"def program(x, y, k, flag):\n    acc = []\n    table = {{}}\n{body}\n"
            f"    return {result}\n")


W = np.linspace(-0.5, 0.5, 36, dtype=np.float32).reshape(6, 6)


def helper(v):
    return v * 0.25 - 1.0


def scale(v, k=1.0):
    return v * k


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.integers(1, 3), st.booleans())
def test_random_program(src, k, flag):
    scope = {"np": np, "W": W, "helper": helper, "scale": scale}
    exec(compile(src, "<random program>", "exec"), scope)
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
    y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)
    try:
        check(scope["program"], x, y, k, flag, graphs=1, breaks=0)
    except AssertionError as e:
        raise AssertionError(f"{e}\n--- program ---\n{textwrap.indent(src, '  ')}") from None
