"""Training loops and clustering: Python ``for`` loops over steps, losses kept in
lists, results returned in dicts, progress printed every N steps, parameters updated in
place, optimizer state in object attributes.
"""

import numpy as np
from rw_check import (
    Program,
    rng_arrays,
)

# ---------------------------------------------------------------- logistic regression


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def logistic_regression(X, y, lr=0.5, epochs=20, l2=1e-3):
    n, d = X.shape
    w = np.zeros(d, dtype=X.dtype)
    b = 0.0
    losses = []
    for epoch in range(epochs):
        p = sigmoid(X @ w + b)
        eps = 1e-7
        loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
        loss += 0.5 * l2 * np.sum(w ** 2)
        grad_w = X.T @ (p - y) / n + l2 * w
        grad_b = np.mean(p - y)
        w -= lr * grad_w
        b -= lr * grad_b
        losses.append(loss)
    accuracy = np.mean((sigmoid(X @ w + b) > 0.5) == (y > 0.5))
    return {"w": w, "b": b, "losses": np.array(losses), "accuracy": accuracy}


def _logreg_args(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(np.float32)
    true_w = rng.standard_normal(d).astype(np.float32)
    y = (X @ true_w + 0.3 * rng.standard_normal(n) > 0).astype(np.float32)
    return X, y


def train_with_progress(X, y, lr=0.1, steps=12, log_every=4):
    """Prints a line every ``log_every`` steps, the way everybody debugs training."""
    w = np.zeros(X.shape[1], dtype=X.dtype)
    for step in range(steps):
        residual = X @ w - y
        loss = 0.5 * np.mean(residual ** 2)
        w = w - lr * (X.T @ residual) / len(y)
        if step % log_every == 0:
            print(f"step {step:3d} | loss {loss:.4f} | |w| {np.linalg.norm(w):.3f}")
    return w


def gradient_descent_early_stopping(X, y, lr=0.1, max_epochs=50, patience_tol=1e-4):
    print(f"fitting {X.shape[1]} weights on {len(y)} samples")
    w = np.zeros(X.shape[1], X.dtype)
    best = np.inf
    for epoch in range(max_epochs):
        w = w - lr * X.T @ (X @ w - y) / len(y)
        loss = float(np.mean((X @ w - y) ** 2))
        if loss < best - patience_tol:
            best = loss
        else:
            break
    return w, epoch, best


# ---------------------------------------------------------------- softmax cross-entropy


def log_softmax(logits, axis=-1):
    shifted = logits - logits.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def cross_entropy_and_grad(logits, labels, label_smoothing=0.0):
    n, k = logits.shape
    one_hot = np.eye(k, dtype=logits.dtype)[labels]
    if label_smoothing > 0:
        one_hot = one_hot * (1 - label_smoothing) + label_smoothing / k
    logp = log_softmax(logits)
    loss = -(one_hot * logp).sum(axis=1).mean()
    grad = (np.exp(logp) - one_hot) / n
    return loss, grad


def _ce_args(seed, n, k, scale=5.0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, k)).astype(np.float32) * scale,
            rng.integers(0, k, size=n))


def softmax_regression_epochs(X, labels, n_classes, lr=0.5, epochs=8):
    W = np.zeros((X.shape[1], n_classes), dtype=X.dtype)
    history = []
    for _ in range(epochs):
        loss, grad_logits = cross_entropy_and_grad(X @ W, labels, label_smoothing=0.1)
        W -= lr * X.T @ grad_logits
        history.append(float(loss))
    return W, history


# ---------------------------------------------------------------- k-means


def kmeans_masks(X, centroids, n_iter=4):
    """The textbook loop: boolean masks select each cluster's members."""
    k = len(centroids)
    for _ in range(n_iter):
        d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(-1)
        labels = d.argmin(axis=1)
        new = np.empty_like(centroids)
        for j in range(k):
            members = X[labels == j]
            new[j] = members.mean(axis=0) if len(members) else centroids[j]
        centroids = new
    inertia = np.min(d, axis=1).sum()
    return centroids, labels, inertia


def kmeans_onehot(X, centroids, n_iter=5):
    """The vectorized version: one-hot assignments, no data-dependent shapes."""
    k = centroids.shape[0]
    for _ in range(n_iter):
        dists = np.linalg.norm(X[:, None, :] - centroids[None], axis=-1)
        labels = np.argmin(dists, axis=1)
        onehot = (labels[:, None] == np.arange(k)[None, :]).astype(X.dtype)
        counts = onehot.sum(axis=0)
        centroids = np.where(counts[:, None] > 0,
                             (onehot.T @ X) / np.maximum(counts, 1)[:, None], centroids)
    return centroids, labels


def _km_args(seed, n, d, k):
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.standard_normal((n // k, d)) + 4 * i for i in range(k)])
    return X.astype(np.float32), X[rng.choice(len(X), k, replace=False)].astype(np.float32)


# ---------------------------------------------------------------- optimizers


def sgd_momentum_step(params, grads, velocity, lr=0.1, momentum=0.9, weight_decay=0.0):
    """Updates the dicts of arrays in place, returns nothing, like most hand-rolled SGD."""
    for name in params:
        g = grads[name]
        if weight_decay:
            g = g + weight_decay * params[name]
        velocity[name] *= momentum
        velocity[name] += g
        params[name] -= lr * velocity[name]


def _sgd_args(seed, shapes, wd):
    names = [f"layer{i}" for i in range(len(shapes))]
    ps = rng_arrays(seed, *shapes)
    gs = rng_arrays(seed + 1, *shapes)
    vs = rng_arrays(seed + 2, *shapes, scale=0.1)
    return (dict(zip(names, ps)), dict(zip(names, gs)), dict(zip(names, vs)), 0.1, 0.9, wd)


class Adam:
    """Optimizer state in attributes; the step counter is a Python int."""

    def __init__(self, shapes, lr=1e-2, betas=(0.9, 0.999), eps=1e-8):
        self.lr, self.betas, self.eps = lr, betas, eps
        self.m = [np.zeros(s, np.float32) for s in shapes]
        self.v = [np.zeros(s, np.float32) for s in shapes]
        self.t = 0

    def step(self, params, grads):
        self.t += 1
        b1, b2 = self.betas
        out = []
        for i, (p, g) in enumerate(zip(params, grads)):
            self.m[i] = b1 * self.m[i] + (1 - b1) * g
            self.v[i] = b2 * self.v[i] + (1 - b2) * g * g
            m_hat = self.m[i] / (1 - b1 ** self.t)
            v_hat = self.v[i] / (1 - b2 ** self.t)
            out.append(p - self.lr * m_hat / (np.sqrt(v_hat) + self.eps))
        return out


def adam_three_steps(opt, params, grads):
    for _ in range(3):
        params = opt.step(params, grads)
    return params, opt.t


def clip_by_global_norm(grads, max_norm=1.0):
    total = np.sqrt(sum(np.sum(g * g) for g in grads))
    if total > max_norm:                    # a data-dependent branch
        grads = [g * (max_norm / total) for g in grads]
    return grads, total


def clip_by_global_norm_branchless(grads, max_norm=1.0):
    total = np.sqrt(sum(np.sum(g * g) for g in grads))
    scale = np.minimum(1.0, max_norm / (total + 1e-6))
    return [g * scale for g in grads], total


# ---------------------------------------------------------------- mini-batches


def minibatch_linear_regression(X, y, batch_size=4, lr=0.05, epochs=2):
    n, d = X.shape
    w = np.zeros(d, X.dtype)
    for epoch in range(epochs):
        for start in range(0, n, batch_size):
            xb = X[start:start + batch_size]
            yb = y[start:start + batch_size]
            err = xb @ w - yb
            w -= lr * xb.T @ err / xb.shape[0]
    return w, np.mean((X @ w - y) ** 2)


def ridge_closed_form(X, y, alphas=(0.1, 1.0, 10.0)):
    """Normal equations for several penalties; picks the best one by training error."""
    n, d = X.shape
    gram = X.T @ X
    results = {}
    for alpha in alphas:
        w = np.linalg.solve(gram + alpha * np.eye(d, dtype=X.dtype), X.T @ y)
        results[alpha] = {"w": w, "mse": np.mean((X @ w - y) ** 2)}
    return results


def _reg_args(seed, n, d):
    X, w = rng_arrays(seed, (n, d), (d,))
    return X, (X @ w + 0.1).astype(np.float32)


PROGRAMS = [
    Program("logistic_regression_dict", logistic_regression,
            [_logreg_args(0, 24, 3), _logreg_args(1, 40, 5), _logreg_args(2, 12, 3)],
            why="`loss += ...` on a NumPy scalar rebinds it (NumPy scalars are immutable)"),
    Program("train_print_every_n", train_with_progress,
            [_reg_args(0, 16, 3), _reg_args(1, 9, 2), _reg_args(2, 5, 3)],
            graphs=1, breaks=1,
            why="`print` of a loss value inside the step loop: the loop runs eagerly "
                "(expected: printing needs the value)"),
    Program("early_stopping_after_header", gradient_descent_early_stopping,
            [_reg_args(0, 16, 3), _reg_args(1, 9, 2), _reg_args(2, 5, 3)],
            graphs=1, breaks=2,
            why="print (expected), then `float(loss)` in the epoch loop (expected): the "
                "loop runs eagerly in the resume function; today it crashes"),
    Program("cross_entropy_eye_labels", cross_entropy_and_grad,
            [_ce_args(0, 6, 4), _ce_args(1, 9, 7), _ce_args(2, 6, 5), (*_ce_args(3, 4, 3), 0.1),
             (*_ce_args(4, 5, 6), 0.1)]),
    Program("softmax_regression_float_history", softmax_regression_epochs,
            [(*_ce_args(2, 10, 3, 1.0), 4), (*_ce_args(3, 7, 5, 1.0), 2),
             (*_ce_args(4, 6, 2, 1.0), 5)],
            why="`history.append(float(loss))` in the epoch loop: the floats are "
                "converted by the glue after the graph (no break)"),
    Program("kmeans_boolean_masks", kmeans_masks,
            [_km_args(0, 30, 2, 3), _km_args(1, 24, 3, 4), _km_args(2, 20, 2, 2)],
            graphs=0, breaks=1,
            why="`if len(members)` reads how many rows `X[labels == j]` selects, known only "
                "when the graph runs (expected); the iteration loop runs eagerly"),
    Program("kmeans_onehot", kmeans_onehot,
            [_km_args(0, 30, 2, 3), _km_args(1, 24, 3, 4), _km_args(2, 20, 2, 2)]),
    Program("sgd_momentum_inplace_dicts", sgd_momentum_step,
            [_sgd_args(0, [(3, 4), (4,)], 0.0), _sgd_args(1, [(5, 2), (2,), (2, 2)], 1e-2),
             _sgd_args(2, [(2, 4), (4,)], 0.0)]),
    Program("adam_object_state", adam_three_steps,
            [(Adam([(3, 2), (2,)]), rng_arrays(0, (3, 2), (2,)), rng_arrays(1, (3, 2), (2,))),
             (Adam([(4,)], lr=0.1), [rng_arrays(2, (4,))], [rng_arrays(3, (4,))]),
             (Adam([(5, 2), (2,)]), rng_arrays(4, (5, 2), (2,)), rng_arrays(5, (5, 2), (2,)))]),
    Program("clip_grad_norm_branch", clip_by_global_norm,
            [(rng_arrays(0, (3, 3), (3,)),), (rng_arrays(1, (2, 5), (5,), scale=0.01),),
             (rng_arrays(2, (4, 3), (3,)),)],
            graphs=2, breaks=1,
            why="`if total > max_norm` branches on an array value (expected)"),
    Program("clip_grad_norm_branchless", clip_by_global_norm_branchless,
            [(rng_arrays(0, (3, 3), (3,)),), (rng_arrays(1, (2, 5), (5,), scale=0.01),),
             (rng_arrays(2, (4, 3), (3,)),)]),
    Program("minibatch_slices", minibatch_linear_regression,
            [_reg_args(0, 10, 3), _reg_args(1, 13, 2), _reg_args(2, 7, 3)]),
    Program("ridge_solve_dict", ridge_closed_form,
            [_reg_args(0, 12, 3), _reg_args(1, 20, 4), _reg_args(2, 8, 3)],
            why="np.linalg.solve is one node per alpha"),
]

