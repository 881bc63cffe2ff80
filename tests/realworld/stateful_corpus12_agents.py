"""The other 12 programs of issue #16's twelfth stateful corpus
(``stateful_corpus12.py`` holds the first 12 and ``PROGRAMS`` of all 24), written before
they were run: REINFORCE episodes kept in lists (``rewards.append(r)``,
``log_probs.append(...)``, discounted returns computed backwards in a Python loop, then
``np.array(returns)``), replay buffers (a list with ``pop(0)``, a ring in a dict, a
list of tuples sampled by a counter), running statistics in dicts (Welford by name, a
metric history of lists), early stopping (patience with a best loss; reduce-on-plateau)
and a linear warmup. Conventions as there.

Example::

    @program(recompiles=1, why=COUNTER)
    def linear_warmup_lr(wrap):
        s = LinearWarmup()
        f = wrap(s.step)
        return [(f(x, g), s.t) for x, g in zip(XS, GS)]
"""

from __future__ import annotations

import numpy as np
from stateful_corpus4 import snap
from stateful_corpus12_data import COUNTER, GS, LOSSES, REWARDS, SIDES, XS
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

W6x3 = np.sin(np.arange(18.0)).reshape(6, 3)   # a linear policy: 6 features, 3 actions


# ===================================================================== REINFORCE

def _log_softmax(z):
    z = z - z.max()
    return z - np.log(np.exp(z).sum())


def reinforce_loss(obs_rewards, x, gamma=0.9):
    """One episode whose rewards arrive as a Python list: the per-step log-probabilities
    appended to a list, the discounted returns computed backwards (``returns.insert(0,
    R)``), normalised, and the policy-gradient loss."""
    rewards, log_probs = [], []
    for t, r in enumerate(obs_rewards):
        rewards.append(r)
        log_probs.append(_log_softmax(x[t:t + 3] @ W6x3[:3])[t % 3])
    R, returns = 0.0, []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = np.array(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    return -(np.array(log_probs) * returns).sum()


@program(recompiles=1, why="the rewards a fresh list of floats each call: " + NUMBER)
def reinforce_episode_lists(wrap):
    f = wrap(reinforce_loss)
    eps = [[REWARDS[(i + j) % len(REWARDS)] for j in range(4)] for i in range(len(XS))]
    return [f(r, x) for r, x in zip(eps, XS)]


class ReinforceAgent:
    """An agent that keeps the episode in lists across calls: each call acts (the
    action's log-probability appended, the reward appended), and every 5th call ends
    the episode: the returns computed backwards, the lists cleared."""

    def __init__(self, gamma=0.95):
        self.gamma, self.rewards, self.log_probs, self.losses = gamma, [], [], []

    def step(self, x, reward):
        lp = _log_softmax(x @ W6x3)
        self.log_probs.append(lp[0])
        self.rewards.append(reward)
        if len(self.rewards) == 5:
            R, returns = 0.0, []
            for r in reversed(self.rewards):
                R = r + self.gamma * R
                returns.append(R)
            returns = np.array(returns[::-1])
            self.losses.append(-(np.array(self.log_probs) * returns).sum())
            self.rewards.clear()
            self.log_probs.clear()
        return lp


@program(recompiles=2, why="the episode's length selects the end-of-episode side; the "
                           "rewards floats that change" + SIDES)
def reinforce_agent_episode_lists(wrap):
    a = ReinforceAgent()
    f = wrap(a.step)
    return [(f(x, r), list(a.rewards), snap(a.log_probs), snap(a.losses))
            for x, r in zip(XS, REWARDS)]


def discounted_cumsum(rewards, gamma=0.99):
    """Returns by a backward loop over a Python list, written into a list by index."""
    out = [0.0] * len(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        out[t] = running
    return np.array(out)


def advantages(rewards, values):
    """Advantages: the discounted returns less a baseline array."""
    return discounted_cumsum(rewards) - values


@program(recompiles=1, why="the rewards a fresh list of floats each call: " + NUMBER)
def discounted_returns_by_index(wrap):
    f = wrap(advantages)
    eps = [[REWARDS[(3 * i + j) % len(REWARDS)] for j in range(6)] for i in range(len(XS))]
    return [f(r, x) for r, x in zip(eps, XS)]


class BaselineReinforce:
    """REINFORCE with a running-mean baseline (a Python float) and the episode's
    rewards summed in Python (``sum(rewards)``)."""

    def __init__(self):
        self.baseline, self.n, self.log = 0.0, 0, []

    def update(self, x, rewards):
        G = sum(rewards)
        self.n += 1
        self.baseline += (G - self.baseline) / self.n
        adv = G - self.baseline
        self.log.append(adv)
        return adv * _log_softmax(x @ W6x3)


@program(recompiles=1, why="a baseline float and a count the call changes: " + COUNTER)
def reinforce_running_baseline(wrap):
    b = BaselineReinforce()
    f = wrap(b.update)
    eps = [[REWARDS[(i + j) % len(REWARDS)] for j in range(3)] for i in range(len(XS))]
    return [(f(x, r), b.baseline, b.n, list(b.log)) for x, r in zip(XS, eps)]


# ===================================================================== replay buffers

class ListReplay:
    """A replay buffer in a list of ``(obs, reward)`` tuples, the oldest dropped by
    ``pop(0)`` past 8; a batch of the last 4 rewards and observations."""

    def __init__(self, cap=8):
        self.buf, self.cap = [], cap

    def push_and_sample(self, obs, reward):
        self.buf.append((obs, reward))
        if len(self.buf) > self.cap:
            self.buf.pop(0)
        batch = self.buf[-4:]
        obs_b = np.stack([o for o, _ in batch])
        rew_b = np.array([r for _, r in batch])
        return obs_b.mean(axis=0) * rew_b.mean()


@program(recompiles=4, why="the buffer fills (an entry per length up to 4 and the pop "
                           "side), the rewards floats that change")
def replay_list_pop_front(wrap):
    r = ListReplay()
    f = wrap(r.push_and_sample)
    return [(f(x, rw), len(r.buf), [w for _, w in r.buf]) for x, rw in zip(XS, REWARDS)]


class RingReplay:
    """A ring buffer in a dict keyed by position (``self.pos = (self.pos + 1) % cap``);
    the mean reward of what it holds."""

    def __init__(self, cap=4):
        self.data, self.pos, self.cap = {}, 0, cap

    def push(self, obs, reward):
        self.data[self.pos] = (obs, reward)
        self.pos = (self.pos + 1) % self.cap
        rewards = [r for _, r in self.data.values()]
        return obs * (sum(rewards) / len(rewards))


@program(recompiles=5, why="the ring fills (an entry per size up to 4), then the "
                           "position a changing int that keys the dict",
         known=(7, (
                   "the comprehension over self.data.values() reads every key (an entry "
                   "per key set while the ring fills: 3), then self.pos keys the write "
                   "and so selects which of the values read in key order is the new "
                   "one: an entry per position until the cache limit (8 compiles)")))
def replay_ring_dict(wrap):
    r = RingReplay()
    f = wrap(r.push)
    return [(f(x, rw), r.pos, sorted(r.data), [w for _, w in r.data.values()])
            for x, rw in zip(XS, REWARDS)]


class CountedSampler:
    """A replay list of ``(obs, action, reward)`` tuples that grows to 6, sampled at
    indices a call counter picks (``(self.k * 5 + j) % len(self.buf)``), an LCG-style
    sampler without an RNG."""

    def __init__(self):
        self.buf, self.k = [], 0

    def push_and_sample(self, obs, reward):
        self.buf.append((obs, self.k % 3, reward))
        if len(self.buf) > 6:
            del self.buf[0]
        self.k += 1
        idx = [(self.k * 5 + j) % len(self.buf) for j in range(2)]
        obs_b = np.stack([self.buf[i][0] for i in idx])
        act_b = np.array([self.buf[i][1] for i in idx])
        rew_b = np.array([self.buf[i][2] for i in idx])
        return (obs_b @ W6x3)[np.arange(2), act_b] * rew_b


@program(recompiles=6, why="the buffer fills (an entry per length up to 6), then the "
                           "sampled indices a counter decides",
         known=(7, (
                   "self.buf[i] at an index the counter and the buffer's length decide "
                   "picks a Python object (which array, which action int): an entry per "
                   "length while it fills, then per counter value, until the cache "
                   "limit (8 compiles); the indices select objects, so the guards stay")))
def replay_sampled_by_counter(wrap):
    r = CountedSampler()
    f = wrap(r.push_and_sample)
    return [(f(x, rw), r.k, [(a, w) for _, a, w in r.buf]) for x, rw in zip(XS, REWARDS)]


# ===================================================================== running statistics

class WelfordByName:
    """Welford statistics per feature name, in a dict of dicts (``n`` an int, ``mean``
    and ``m2`` arrays); the call standardises its input by them."""

    def __init__(self):
        self.stats = {"a": {"n": 0, "mean": np.zeros(3), "m2": np.zeros(3)},
                      "b": {"n": 0, "mean": np.zeros(3), "m2": np.zeros(3)}}

    def update(self, x):
        out = []
        for name, part in (("a", x[:3]), ("b", x[3:])):
            st = self.stats[name]
            st["n"] += 1
            delta = part - st["mean"]
            st["mean"] = st["mean"] + delta / st["n"]
            st["m2"] = st["m2"] + delta * (part - st["mean"])
            var = st["m2"] / max(st["n"] - 1, 1)
            out.append((part - st["mean"]) / np.sqrt(var + 1e-8))
        return np.concatenate(out)


@program(recompiles=2, why=COUNTER + "; max(n - 1, 1) picks a side at the second call")
def welford_stats_by_name(wrap):
    w = WelfordByName()
    f = wrap(w.update)
    return [(f(x), snap(w.stats)) for x in XS]


class MetricHistory:
    """A metric history of lists by name (``history[k].append(v)``), the values Python
    floats of the call's arrays; the call returns the mean of the last 3 losses."""

    def __init__(self):
        self.history = {"loss": [], "norm": []}

    def log(self, x, loss):
        self.history["loss"].append(loss)
        self.history["norm"].append(float(np.linalg.norm(x)))
        recent = self.history["loss"][-3:]
        return x * (sum(recent) / len(recent))


@program(recompiles=3, why="the window of the last 3 losses fills: an entry per length "
                           "up to 3")
def metric_history_lists(wrap):
    m = MetricHistory()
    f = wrap(m.log)
    return [(f(x, loss), snap(m.history)) for x, loss in zip(XS, LOSSES)]


# ===================================================================== early stopping, warmup

class EarlyStopping:
    """Patience 3 over a best loss: a counter of calls without improvement, a stop flag,
    and the best weights kept."""

    def __init__(self, patience=3):
        self.best, self.wait, self.stop, self.patience = float("inf"), 0, False, patience
        self.best_w = None

    def check(self, w, loss):
        if loss < self.best - 1e-3:
            self.best, self.wait, self.best_w = loss, 0, w.copy()
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stop = True
        return w * 0.99


@program(recompiles=3, why="loss < best picks a side" + SIDES + "; wait >= patience the "
                           "other")
def early_stopping_patience(wrap):
    e = EarlyStopping()
    f = wrap(e.check)
    return [(f(x, loss), e.best, e.wait, e.stop, snap(e.best_w))
            for x, loss in zip(XS, LOSSES)]


class ReduceOnPlateau:
    """Reduce-on-plateau: the learning rate halves after 2 calls without improvement."""

    def __init__(self):
        self.lr, self.best, self.bad = 0.1, float("inf"), 0

    def step(self, w, g, loss):
        if loss < self.best:
            self.best, self.bad = loss, 0
        else:
            self.bad += 1
            if self.bad > 2:
                self.lr, self.bad = self.lr * 0.5, 0
        return w - self.lr * g


@program(recompiles=3, why="loss < best picks a side" + SIDES + "; bad > 2 the other "
                           "(was 5: self.lr, halved only in the bad > 2 branch, was a "
                           "constant of the entries traced before; now a float the "
                           "method stores is changing from the first trace, "
                           "dynamo/stored_floats.py)")
def reduce_lr_on_plateau(wrap):
    r = ReduceOnPlateau()
    f = wrap(r.step)
    return [(f(x, g, loss), r.lr, r.best, r.bad) for x, g, loss in zip(XS, GS, LOSSES)]


class LinearWarmup:
    """Linear warmup then constant: ``lr = base * min(1, t / warmup)``."""

    def __init__(self):
        self.t, self.base, self.warmup = 0, 0.1, 5

    def step(self, w, g):
        self.t += 1
        lr = self.base * min(1.0, self.t / self.warmup)
        return w - lr * g


@program(recompiles=2, why=COUNTER + "; min() of a changing float: an entry per side")
def linear_warmup_lr(wrap):
    s = LinearWarmup()
    f = wrap(s.step)
    return [(f(x, g), s.t) for x, g in zip(XS, GS)]
