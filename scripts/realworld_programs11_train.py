"""The eleventh corpus's training half (``realworld_programs11.py`` joins it, issues
#15/#19): optimizers as classes holding per-parameter state (Adam, RMSProp, Adagrad,
Nesterov SGD with a cosine schedule) driving small models, preprocessing (a standard
scaler's fit/transform/inverse, one-hot and label encoding, polynomial features, a
robust scaler) and metrics (ROC AUC by sorting, a confusion matrix with per-class
scores, average precision, silhouette), written before any ran under dynamo.

Example::

    >>> programs(small=True)[0][0]
    'Adam class on a linear regression'
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

# ---------------------------------------------------------------- optimizers


class OptimizerBase:
    def __init__(self, lr=0.01, scheduler=None):
        self.lr = lr
        self.cache = {}
        self.cur_step = 0
        self.hyperparameters = {"lr": lr}
        self.scheduler = scheduler

    def step(self):
        self.cur_step += 1

    def current_lr(self):
        if self.scheduler is None:
            return self.lr
        return self.scheduler(self.cur_step)


class Adam(OptimizerBase):
    def __init__(self, lr=0.001, decay1=0.9, decay2=0.999, eps=1e-7, **kw):
        super().__init__(lr, **kw)
        self.hyperparameters.update(decay1=decay1, decay2=decay2, eps=eps)

    def update(self, param, param_grad, param_name):
        C = self.cache
        H = self.hyperparameters
        d1, d2 = H["decay1"], H["decay2"]
        if param_name not in C:
            C[param_name] = {"t": 0, "mean": np.zeros_like(param_grad),
                             "var": np.zeros_like(param_grad)}
        t = C[param_name]["t"] + 1
        mean = d1 * C[param_name]["mean"] + (1 - d1) * param_grad
        var = d2 * C[param_name]["var"] + (1 - d2) * param_grad ** 2
        C[param_name].update(t=t, mean=mean, var=var)
        m_hat = mean / (1 - d1 ** t)
        v_hat = var / (1 - d2 ** t)
        return param - self.current_lr() * m_hat / (np.sqrt(v_hat) + H["eps"])


class RMSProp(OptimizerBase):
    def __init__(self, lr=0.001, decay=0.9, eps=1e-7, **kw):
        super().__init__(lr, **kw)
        self.decay, self.eps = decay, eps

    def update(self, param, param_grad, param_name):
        if param_name not in self.cache:
            self.cache[param_name] = np.zeros_like(param_grad)
        sc = self.decay * self.cache[param_name] + (1 - self.decay) * param_grad ** 2
        self.cache[param_name] = sc
        return param - self.current_lr() * param_grad / (np.sqrt(sc) + self.eps)


class AdaGrad(OptimizerBase):
    def __init__(self, lr=0.01, eps=1e-7, **kw):
        super().__init__(lr, **kw)
        self.eps = eps

    def update(self, param, param_grad, param_name):
        C = self.cache
        if param_name not in C:
            C[param_name] = np.zeros_like(param_grad)
        C[param_name] += param_grad ** 2
        return param - self.current_lr() * param_grad / (np.sqrt(C[param_name]) + self.eps)


class NesterovSGD(OptimizerBase):
    def __init__(self, lr=0.1, momentum=0.9, weight_decay=1e-4, **kw):
        super().__init__(lr, **kw)
        self.momentum, self.wd = momentum, weight_decay

    def update(self, param, param_grad, param_name):
        v = self.cache.get(param_name)
        if v is None:
            v = np.zeros_like(param)
        g = param_grad + self.wd * param
        v = self.momentum * v + g
        self.cache[param_name] = v
        return param - self.current_lr() * (g + self.momentum * v)


def linreg_grads(params, X, y):
    err = X @ params["W"] + params["b"] - y
    return {"W": X.T @ err / len(X), "b": err.mean(axis=0)}, float((err ** 2).mean())


def train_linreg(opt, X, y, n_steps):
    params = {"W": np.zeros((X.shape[1], y.shape[1])), "b": np.zeros(y.shape[1])}
    history = []
    for _ in range(n_steps):
        grads, loss = linreg_grads(params, X, y)
        for name in params:
            params[name] = opt.update(params[name], grads[name], name)
        opt.step()
        history.append(loss)
    return params, history


def adam_linreg(X, y, n_steps=20):
    return train_linreg(Adam(lr=0.05), X, y, n_steps)


def rmsprop_linreg(X, y, n_steps=20):
    return train_linreg(RMSProp(lr=0.01), X, y, n_steps)


def adagrad_linreg(X, y, n_steps=20):
    opt = AdaGrad(lr=0.5)
    params, history = train_linreg(opt, X, y, n_steps)
    return params, history, opt.cache["W"]


def cosine_schedule(total, base_lr=0.05, warmup=3):
    def lr_at(step):
        if step < warmup:
            return base_lr * (step + 1) / warmup
        progress = (step - warmup) / max(1, total - warmup)
        return 0.5 * base_lr * (1 + np.cos(np.pi * progress))
    return lr_at


def nesterov_cosine_logreg(X, y, n_steps=20):
    opt = NesterovSGD(scheduler=cosine_schedule(n_steps))
    w = np.zeros(X.shape[1])
    for _ in range(n_steps):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        w = opt.update(w, X.T @ (p - y) / len(y), "w")
        opt.step()
    return w, opt.current_lr()


# ---------------------------------------------------------------- preprocessing


class StandardScaler:
    def __init__(self, with_mean=True, with_std=True):
        self.with_mean, self.with_std = with_mean, with_std
        self.mean_ = self.scale_ = None

    def fit(self, X):
        self.mean_ = X.mean(axis=0) if self.with_mean else np.zeros(X.shape[1])
        if self.with_std:
            std = X.std(axis=0)
            std[std == 0.0] = 1.0
            self.scale_ = std
        else:
            self.scale_ = np.ones(X.shape[1])
        return self

    def transform(self, X):
        assert X.shape[1] == self.mean_.shape[0], "feature count changed"
        return (X - self.mean_) / self.scale_

    def inverse_transform(self, Z):
        return Z * self.scale_ + self.mean_


def scaler_fit_transform_roundtrip(Xtr, Xte):
    sc = StandardScaler().fit(Xtr)
    Ztr, Zte = sc.transform(Xtr), sc.transform(Xte)
    back = sc.inverse_transform(Zte)
    return Ztr, Zte, np.abs(back - Xte).max()


def one_hot_encode(labels, n_classes=None):
    classes, inv = np.unique(labels, return_inverse=True)
    if n_classes is None:
        n_classes = len(classes)
    out = np.zeros((len(labels), n_classes))
    out[np.arange(len(labels)), inv] = 1.0
    return classes, out


def one_hot_fixed_width(codes, n_classes):
    assert codes.max() < n_classes
    return np.eye(n_classes)[codes].sum(axis=1)


def polynomial_features(X, degree=2, include_bias=True):
    n, d = X.shape
    cols = [np.ones(n)] if include_bias else []
    for deg in range(1, degree + 1):
        for combo in combinations_with_replacement(range(d), deg):
            cols.append(np.prod(X[:, combo], axis=1))
    return np.column_stack(cols)


def robust_scale(X, q_low=25.0, q_high=75.0):
    med = np.median(X, axis=0)
    lo, hi = np.percentile(X, [q_low, q_high], axis=0)
    iqr = hi - lo
    iqr[iqr == 0] = 1.0
    Xc = (X - med) / iqr
    return np.clip(Xc, -5, 5), med, iqr


# ---------------------------------------------------------------- metrics


def roc_auc_by_sorting(y_true, scores):
    order = np.argsort(-scores, kind="mergesort")
    y = y_true[order]
    s = scores[order]
    distinct = np.where(np.diff(s))[0]
    thresh_idx = np.r_[distinct, y.size - 1]
    tps = np.cumsum(y)[thresh_idx]
    fps = 1 + thresh_idx - tps
    tpr = np.r_[0, tps] / tps[-1]
    fpr = np.r_[0, fps] / fps[-1]
    return np.trapz(tpr, fpr) if hasattr(np, "trapz") else np.trapezoid(tpr, fpr)


def confusion_and_f1(y_true, y_pred, n_classes):
    cm = np.zeros((n_classes, n_classes), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    tp = np.diag(cm).astype(float)
    precision = tp / np.maximum(cm.sum(axis=0), 1)
    recall = tp / np.maximum(cm.sum(axis=1), 1)
    denom = precision + recall
    f1 = np.where(denom > 0, 2 * precision * recall / np.where(denom > 0, denom, 1), 0.0)
    return {"confusion": cm, "macro_f1": f1.mean(), "accuracy": tp.sum() / cm.sum()}


def average_precision(y_true, scores):
    order = np.argsort(scores)[::-1]
    y = y_true[order]
    tp = np.cumsum(y)
    precision = tp / np.arange(1, len(y) + 1)
    n_pos = y.sum()
    if n_pos == 0:
        return 0.0
    return float((precision * y).sum() / n_pos)


def silhouette_score(X, labels, n_clusters):
    sq = (X ** 2).sum(axis=1)
    D = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0.0))
    n = len(X)
    a = np.zeros(n)
    b = np.full(n, np.inf)
    for k in range(n_clusters):
        in_k = labels == k
        count = in_k.sum()
        mean_d = D[:, in_k].sum(axis=1)
        own = labels == k
        a = np.where(own, mean_d / np.maximum(count - 1, 1), a)
        b = np.where(own, b, np.minimum(b, mean_d / max(count, 1)))
    s = (b - a) / np.maximum(a, b)
    return s.mean()


def calibration_report(y_true, probs, n_bins=10):
    probs = np.clip(probs, 1e-15, 1 - 1e-15)
    log_loss = -np.mean(y_true * np.log(probs) + (1 - y_true) * np.log(1 - probs))
    brier = np.mean((probs - y_true) ** 2)
    bins = np.minimum((probs * n_bins).astype(int), n_bins - 1)
    counts = np.bincount(bins, minlength=n_bins)
    conf = np.bincount(bins, weights=probs, minlength=n_bins)
    acc = np.bincount(bins, weights=y_true, minlength=n_bins)
    nz = counts > 0
    ece = np.sum(np.abs(acc[nz] - conf[nz])) / len(probs)
    return {"log_loss": log_loss, "brier": brier, "ece": ece}


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this file's programs."""
    rng = np.random.default_rng(111)
    s = lambda big, little: little if small else big
    X = rng.standard_normal((s(4000, 30), s(50, 5)))
    Y = (X @ rng.standard_normal((s(50, 5), s(4, 2)))
         + 0.1 * rng.standard_normal((s(4000, 30), s(4, 2))))
    yb = (X[:, 0] + 0.5 * rng.standard_normal(len(X)) > 0).astype(float)
    labels = rng.integers(0, s(20, 4), s(20000, 40))
    codes = rng.integers(0, s(30, 5), (s(5000, 20), s(4, 2)))
    Xp = rng.standard_normal((s(5000, 30), s(10, 3)))
    scores = rng.random(s(20000, 40)) + 0.3 * (labels % 2)
    y_true = (labels % 2).astype(float)
    Xc = rng.standard_normal((s(600, 24), 8)) + 3 * rng.integers(0, 4, (s(600, 24), 1))
    lc = rng.integers(0, 4, s(600, 24))
    lab_big = rng.integers(0, s(20, 4), s(200000, 40))
    pred_big = np.where(rng.random(len(lab_big)) < 0.7, lab_big, (lab_big + 1) % s(20, 4))
    probs_big = rng.random(s(200000, 40))
    return [
        ("Adam class on a linear regression", adam_linreg, (X, Y), {"n_steps": s(20, 3)}),
        ("RMSProp class on a linear regression", rmsprop_linreg, (X, Y),
         {"n_steps": s(20, 3)}),
        ("AdaGrad class, accumulator kept", adagrad_linreg, (X, Y), {"n_steps": s(20, 3)}),
        ("Nesterov SGD with cosine schedule, logistic regression", nesterov_cosine_logreg,
         (X, yb), {"n_steps": s(30, 5)}),
        ("StandardScaler fit, transform, inverse", scaler_fit_transform_roundtrip,
         (X, X[::2] * 2.0), {}),
        ("one-hot by np.unique(return_inverse)", one_hot_encode, (labels,), {}),
        ("multi-hot of code columns by np.eye", one_hot_fixed_width, (codes, s(30, 5)), {}),
        ("polynomial features, degree 2", polynomial_features, (Xp,), {}),
        ("robust scaler by median and IQR", robust_scale, (X,), {}),
        ("ROC AUC by sorting", roc_auc_by_sorting, (y_true, scores), {}),
        ("confusion matrix and macro F1", confusion_and_f1,
         (lab_big, pred_big, s(20, 4)), {}),
        ("average precision", average_precision, (y_true, scores), {}),
        ("silhouette score", silhouette_score, (Xc, lc, 4), {}),
        ("log loss, Brier and calibration error", calibration_report,
         ((lab_big % 2).astype(float), probs_big), {}),
    ]
