"""The fifteenth corpus of scripts/bench_realworld.py, second part (see
``realworld_programs15.py``): signal and image processing written the way their authors
write it (a phaser of all-pass stages per sample, a one-pole smoother over channels, a
chamfer distance transform in two raster passes, a Hough transform, Sobel edges with
non-maximum suppression, unsharp masking by an integral image, a 3x3 median filter,
Otsu's threshold by a loop over levels, a flood fill with a list as the stack) and
graphics and geometry (ray-sphere rendering, a convex hull by the monotone chain, sphere
tracing of a signed distance field, areas and centroids of a list of polygons, a
triangle rasteriser with a z-buffer, Catmull-Rom curves, rigid alignment by ICP with
Kabsch steps).

Example::

    >>> programs(small=True)[0][0]
    'phaser by all-pass stages per sample'
"""

from __future__ import annotations

import math

import numpy as np

# ---------------------------------------------------------------- signal and image


def phaser_allpass_chain(x, fs, stages=4, rate=0.5, depth=0.7, feedback=0.5):
    """A phaser: a chain of first-order all-pass stages per sample, their
    coefficient swept by an LFO, with feedback from the chain's output."""
    n = len(x)
    lfo = 0.5 * (1 + np.sin(2 * np.pi * rate * np.arange(n) / fs))
    fc = 300.0 + depth * 3000.0 * lfo
    tn = np.tan(np.pi * fc / fs)
    coef = (tn - 1) / (tn + 1)
    state = [0.0] * stages
    y = np.empty(n)
    last = 0.0
    for i in range(n):
        a = coef[i]
        v = x[i] + feedback * last
        for k in range(stages):
            out = a * v + state[k]
            state[k] = v - a * out
            v = out
        last = v
        y[i] = 0.5 * (x[i] + v)
    return y



def one_pole_channels(x, tau, fs):
    """A one-pole smoother over many channels, vectorised across channels and
    looped over time."""
    a = 1 - math.exp(-1 / (tau * fs))
    y = np.empty_like(x)
    y[:, 0] = x[:, 0]
    for n in range(1, x.shape[1]):
        y[:, n] = y[:, n - 1] + a * (x[:, n] - y[:, n - 1])
    return y


def chamfer_distance(mask):
    """The 3-4 chamfer distance transform of a binary mask: a forward and a backward
    raster pass, the textbook double loops."""
    h, w = mask.shape
    big = 10 ** 6
    D = np.where(mask, 0, big).astype(np.int64)
    for i in range(h):
        for j in range(w):
            if D[i, j] == 0:
                continue
            best = D[i, j]
            if i > 0:
                best = min(best, D[i - 1, j] + 3)
                if j > 0:
                    best = min(best, D[i - 1, j - 1] + 4)
                if j < w - 1:
                    best = min(best, D[i - 1, j + 1] + 4)
            if j > 0:
                best = min(best, D[i, j - 1] + 3)
            D[i, j] = best
    for i in range(h - 1, -1, -1):
        for j in range(w - 1, -1, -1):
            best = D[i, j]
            if i < h - 1:
                best = min(best, D[i + 1, j] + 3)
                if j < w - 1:
                    best = min(best, D[i + 1, j + 1] + 4)
                if j > 0:
                    best = min(best, D[i + 1, j - 1] + 4)
            if j < w - 1:
                best = min(best, D[i, j + 1] + 3)
            D[i, j] = best
    return D / 3.0



def hough_lines(edges, n_theta=180, top=5):
    """The Hough transform of an edge image: one accumulator row per angle, filled
    by bincount of the rounded distances; the strongest lines."""
    ys, xs = np.nonzero(edges)
    h, w = edges.shape
    diag = int(math.ceil(math.hypot(h, w)))
    thetas = np.linspace(-np.pi / 2, np.pi / 2, n_theta, endpoint=False)
    acc = np.zeros((n_theta, 2 * diag + 1), dtype=np.int64)
    for i, th in enumerate(thetas):
        rho = np.round(xs * np.cos(th) + ys * np.sin(th)).astype(np.int64) + diag
        acc[i] = np.bincount(rho, minlength=2 * diag + 1)
    flat = np.argsort(acc.ravel())[::-1][:top]
    ti, ri = np.unravel_index(flat, acc.shape)
    return thetas[ti], ri - diag, acc.max()


def sobel_nms(img):
    """Sobel gradients, then non-maximum suppression along the gradient direction
    quantised to four angles."""
    p = np.pad(img, 1, mode="edge")
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    mag = np.hypot(gx, gy)
    ang = (np.rad2deg(np.arctan2(gy, gx)) + 180) % 180
    m = np.pad(mag, 1)
    c = m[1:-1, 1:-1]
    horiz = (ang < 22.5) | (ang >= 157.5)
    diag1 = (ang >= 22.5) & (ang < 67.5)
    vert = (ang >= 67.5) & (ang < 112.5)
    diag2 = (ang >= 112.5) & (ang < 157.5)
    keep = np.zeros(c.shape, dtype=bool)
    keep |= horiz & (c >= m[1:-1, :-2]) & (c >= m[1:-1, 2:])
    keep |= diag1 & (c >= m[:-2, 2:]) & (c >= m[2:, :-2])
    keep |= vert & (c >= m[:-2, 1:-1]) & (c >= m[2:, 1:-1])
    keep |= diag2 & (c >= m[:-2, :-2]) & (c >= m[2:, 2:])
    return np.where(keep, mag, 0.0)


def unsharp_box_integral(img, radius, amount=1.0, gamma=0.8):
    """Unsharp masking with a box blur from an integral image, then a gamma curve
    through a 256-entry lookup table for an 8-bit result."""
    f = img.astype(np.float64)
    h, w = f.shape
    ii = np.zeros((h + 1, w + 1))
    ii[1:, 1:] = f.cumsum(0).cumsum(1)
    r = radius
    y0 = np.clip(np.arange(h) - r, 0, h)
    y1 = np.clip(np.arange(h) + r + 1, 0, h)
    x0 = np.clip(np.arange(w) - r, 0, w)
    x1 = np.clip(np.arange(w) + r + 1, 0, w)
    box = (ii[y1][:, x1] - ii[y0][:, x1] - ii[y1][:, x0] + ii[y0][:, x0])
    area = (y1 - y0)[:, None] * (x1 - x0)[None, :]
    blur = box / area
    sharp = np.clip(f + amount * (f - blur), 0, 255).astype(np.uint8)
    lut = np.round(255 * (np.arange(256) / 255.0) ** gamma).astype(np.uint8)
    return lut[sharp]



def median3x3(img):
    """A 3x3 median filter: the nine shifted views stacked, then the median."""
    p = np.pad(img, 1, mode="reflect")
    h, w = img.shape
    stack = np.stack([p[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)])
    return np.median(stack, axis=0)


def otsu_threshold_loop(img):
    """Otsu's threshold by trying every level, the between-class variance from
    running sums in a Python loop."""
    hist = np.bincount(img.ravel(), minlength=256).astype(float)
    total = img.size
    sum_all = np.dot(np.arange(256), hist)
    w0 = 0.0
    sum0 = 0.0
    best, best_t = -1.0, 0
    for t in range(256):
        w0 += hist[t]
        if w0 == 0:
            continue
        w1 = total - w0
        if w1 == 0:
            break
        sum0 += t * hist[t]
        m0 = sum0 / w0
        m1 = (sum_all - sum0) / w1
        between = w0 * w1 * (m0 - m1) ** 2
        if between > best:
            best, best_t = between, t
    return best_t, img > best_t


def flood_fill_stack(img, seed, tol):
    """Region growing from a seed pixel with a list as the stack, 4-connected,
    accepting neighbours within ``tol`` of the seed value."""
    h, w = img.shape
    sy, sx = seed
    ref = img[sy, sx]
    mask = np.zeros((h, w), dtype=bool)
    stack = [(sy, sx)]
    mask[sy, sx] = True
    while stack:
        y, x = stack.pop()
        for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if 0 <= ny < h and 0 <= nx < w and not mask[ny, nx]:
                if abs(img[ny, nx] - ref) <= tol:
                    mask[ny, nx] = True
                    stack.append((ny, nx))
    return mask, int(mask.sum())


# ---------------------------------------------------------------- graphics and geometry


def render_spheres(width, height, centers, radii, colors, light):
    """A ray caster: one primary ray per pixel, the nearest of a few spheres by a
    loop over spheres, Lambert shading."""
    aspect = width / height
    xs = np.linspace(-aspect, aspect, width)
    ys = np.linspace(1, -1, height)
    px, py = np.meshgrid(xs, ys)
    dirs = np.stack([px, py, -np.ones_like(px)], axis=-1)
    dirs /= np.linalg.norm(dirs, axis=-1, keepdims=True)
    nearest = np.full((height, width), np.inf)
    hit = np.full((height, width), -1)
    for k in range(len(radii)):
        oc = -centers[k]
        b = dirs @ oc
        c = oc @ oc - radii[k] ** 2
        disc = b * b - c
        t = -b - np.sqrt(np.maximum(disc, 0))
        closer = (disc > 0) & (t > 1e-4) & (t < nearest)
        nearest = np.where(closer, t, nearest)
        hit = np.where(closer, k, hit)
    image = np.zeros((height, width, 3))
    L = light / np.linalg.norm(light)
    for k in range(len(radii)):
        m = hit == k
        p = dirs[m] * nearest[m][:, None]
        n = (p - centers[k]) / radii[k]
        shade = np.clip(n @ L, 0, 1)
        image[m] = colors[k] * (0.1 + 0.9 * shade[:, None])
    return image


def convex_hull_chain(points):
    """Andrew's monotone chain: sort by x then y, build the lower and upper hulls
    with cross products of Python floats."""
    order = np.lexsort((points[:, 1], points[:, 0]))
    pts = points[order].tolist()

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = np.array(lower[:-1] + upper[:-1])
    x, y = hull[:, 0], hull[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return hull, area


def sphere_trace_sdf(origins, dirs, max_steps=64, eps=1e-3, far=20.0):
    """Sphere tracing of a signed distance field (a sphere unioned with a torus):
    every ray marches by the distance, stopping early when none is still active."""
    t = np.zeros(len(origins))
    active = np.ones(len(origins), dtype=bool)
    steps = 0
    for steps in range(max_steps):  # noqa: B007 (the count is returned)
        p = origins + dirs * t[:, None]
        d_sphere = np.linalg.norm(p - np.array([0.0, 0.0, 5.0]), axis=1) - 1.0
        q = p - np.array([2.0, 0.0, 6.0])
        qxz = np.sqrt(q[:, 0] ** 2 + q[:, 2] ** 2) - 1.0
        d_torus = np.sqrt(qxz ** 2 + q[:, 1] ** 2) - 0.3
        d = np.minimum(d_sphere, d_torus)
        t = np.where(active, t + d, t)
        active &= (d > eps) & (t < far)
        if not active.any():
            break
    return t, t < far, steps


def polygon_areas_centroids(polygons):
    """Signed areas (shoelace) and centroids of a list of polygons of different
    sizes, one at a time, and the largest."""
    areas = []
    centroids = []
    for poly in polygons:
        x, y = poly[:, 0], poly[:, 1]
        xn, yn = np.roll(x, -1), np.roll(y, -1)
        cross = x * yn - xn * y
        a = 0.5 * cross.sum()
        cx = ((x + xn) * cross).sum() / (6 * a)
        cy = ((y + yn) * cross).sum() / (6 * a)
        areas.append(a)
        centroids.append((cx, cy))
    areas = np.array(areas)
    return areas, np.array(centroids), int(np.argmax(np.abs(areas)))



def rasterize_triangles(tris, depths, width, height):
    """A triangle rasteriser: per triangle, its bounding box, edge functions for
    coverage, interpolated depth, and a z-buffer update."""
    zbuf = np.full((height, width), np.inf)
    ids = np.full((height, width), -1)
    for k in range(len(tris)):
        (x0, y0), (x1, y1), (x2, y2) = tris[k]
        xmin = max(int(math.floor(min(x0, x1, x2))), 0)
        xmax = min(int(math.ceil(max(x0, x1, x2))), width - 1)
        ymin = max(int(math.floor(min(y0, y1, y2))), 0)
        ymax = min(int(math.ceil(max(y0, y1, y2))), height - 1)
        if xmin > xmax or ymin > ymax:
            continue
        X, Y = np.meshgrid(np.arange(xmin, xmax + 1) + 0.5, np.arange(ymin, ymax + 1) + 0.5)
        area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
        if area == 0:
            continue
        w0 = ((x1 - X) * (y2 - Y) - (y1 - Y) * (x2 - X)) / area
        w1 = ((x2 - X) * (y0 - Y) - (y2 - Y) * (x0 - X)) / area
        w2 = 1 - w0 - w1
        inside = (w0 >= 0) & (w1 >= 0) & (w2 >= 0)
        z = w0 * depths[k, 0] + w1 * depths[k, 1] + w2 * depths[k, 2]
        box = zbuf[ymin:ymax + 1, xmin:xmax + 1]
        win = inside & (z < box)
        box[win] = z[win]
        ids[ymin:ymax + 1, xmin:xmax + 1][win] = k
    return zbuf, ids


def catmull_rom_curve(ctrl, samples_per_segment=20):
    """A centripetal-free (uniform) Catmull-Rom curve through control points, one
    segment at a time, and its length."""
    pts = np.vstack([ctrl[0], ctrl, ctrl[-1]])
    t = np.linspace(0, 1, samples_per_segment, endpoint=False)[:, None]
    t2, t3 = t * t, t * t * t
    out = []
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        seg = 0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2
                     + (-p0 + 3 * p1 - 3 * p2 + p3) * t3)
        out.append(seg)
    curve = np.vstack(out + [ctrl[-1:]])
    length = np.sum(np.linalg.norm(np.diff(curve, axis=0), axis=1))
    return curve, length


def icp_kabsch(src, dst, iters=20, tol=1e-9):
    """Rigid alignment by iterative closest points: nearest neighbours from the
    squared-distance matrix, the Kabsch rotation by SVD, until the error settles."""
    cur = src.copy()
    R_total = np.eye(src.shape[1])
    t_total = np.zeros(src.shape[1])
    prev = np.inf
    err = prev
    for _ in range(iters):
        d2 = ((cur[:, None, :] - dst[None, :, :]) ** 2).sum(-1)
        nn = dst[np.argmin(d2, axis=1)]
        err = np.mean(np.min(d2, axis=1))
        mc, mn = cur.mean(axis=0), nn.mean(axis=0)
        H = (cur - mc).T @ (nn - mn)
        U, _, Vt = np.linalg.svd(H)
        D = np.eye(src.shape[1])
        D[-1, -1] = np.sign(np.linalg.det(Vt.T @ U.T))
        R = Vt.T @ D @ U.T
        t = mn - R @ mc
        cur = cur @ R.T + t
        R_total = R @ R_total
        t_total = R @ t_total + t
        if abs(prev - err) < tol:
            break
        prev = err
    return R_total, t_total, err


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this part of the fifteenth corpus."""
    rng = np.random.default_rng(15015)
    s = lambda big, little: little if small else big
    fs = 8000
    sig = np.sin(2 * np.pi * 440 * np.arange(s(20000, 200)) / fs) + 0.3 * rng.standard_normal(
        s(20000, 200))
    chans = rng.standard_normal((s(64, 4), s(4000, 50)))
    yy, xx = np.mgrid[0:s(400, 16), 0:s(400, 18)]
    blobs = ((xx - s(150, 6)) ** 2 + (yy - s(200, 8)) ** 2 < s(90, 4) ** 2) | (
        rng.random(xx.shape) < 0.05)
    edges = np.zeros((s(300, 20), s(300, 24)), dtype=bool)
    for k in range(s(300, 20)):
        edges[k, min(k // 2 + 10, edges.shape[1] - 1)] = True
        edges[min(int(0.8 * k) + 3, edges.shape[0] - 1), k % edges.shape[1]] = True
    edges |= rng.random(edges.shape) < 0.01
    gray = (np.sin(xx / 17.0) * np.cos(yy / 23.0) + 0.2 * rng.standard_normal(xx.shape))
    img8 = np.clip((gray + 1.5) * 80, 0, 255).astype(np.uint8)
    fill = np.round(np.sin(xx / s(40.0, 5.0)) * 3).astype(float)[:s(120, 12), :s(120, 14)]
    centers = np.array([[0.0, 0.0, -3.0], [1.2, 0.3, -4.0], [-1.5, -0.2, -5.0],
                        [0.0, -101.0, -5.0]])
    radii = np.array([1.0, 0.7, 1.2, 100.0])
    colors = rng.random((4, 3))
    cloud = rng.standard_normal((s(20000, 40), 2))
    n_rays = s(15000, 50)
    dirs = np.column_stack([rng.uniform(-0.4, 0.6, n_rays), rng.uniform(-0.4, 0.4, n_rays),
                            np.ones(n_rays)])
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    polys = []
    for k in range(s(400, 6)):
        a = np.sort(rng.uniform(0, 2 * np.pi, 3 + k % 9))
        polys.append(np.column_stack([np.cos(a), np.sin(a)]) * rng.uniform(0.5, 2.0)
                     + rng.uniform(-5, 5, 2))
    W, H = s(320, 24), s(240, 18)
    tri_c = rng.uniform([0, 0], [W, H], (s(150, 5), 1, 2))
    tris = tri_c + rng.uniform(-s(30, 6), s(30, 6), (len(tri_c), 3, 2))
    depths = rng.uniform(1, 10, (len(tris), 3))
    ctrl = np.cumsum(rng.standard_normal((s(400, 6), 3)), axis=0)
    src = rng.standard_normal((s(400, 12), 3))
    th = 0.3
    Rz = np.array([[math.cos(th), -math.sin(th), 0], [math.sin(th), math.cos(th), 0], [0, 0, 1]])
    dst = src @ Rz.T + np.array([0.2, -0.1, 0.05]) + 0.01 * rng.standard_normal(src.shape)
    return [
        ("phaser by all-pass stages per sample", phaser_allpass_chain, (sig, float(fs)), {}),
        ("one-pole smoother over channels", one_pole_channels, (chans, 0.01, float(fs)), {}),
        ("chamfer distance transform in two passes", chamfer_distance,
         (blobs[:s(60, 3), :s(60, 4)],), {}),
        ("Hough transform for lines", hough_lines, (edges,), {"n_theta": s(180, 6)}),
        ("Sobel edges with non-maximum suppression", sobel_nms, (gray,), {}),
        ("unsharp mask by an integral image", unsharp_box_integral, (img8, s(4, 1)), {}),
        ("3x3 median filter", median3x3, (gray[:s(300, 12), :s(300, 13)],), {}),
        ("Otsu threshold by a loop over levels", otsu_threshold_loop, (img8,), {}),
        ("flood fill with a list as the stack", flood_fill_stack, (fill, (3, 3), 0.5), {}),
        ("ray-sphere rendering with Lambert shading", render_spheres,
         (s(320, 16), s(240, 12), centers, radii, colors, np.array([1.0, 1.0, 1.0])), {}),
        ("convex hull by the monotone chain", convex_hull_chain, (cloud,), {}),
        ("sphere tracing a signed distance field", sphere_trace_sdf,
         (np.zeros((n_rays, 3)), dirs), {"max_steps": s(64, 12)}),
        ("polygon areas and centroids from a list", polygon_areas_centroids, (polys,), {}),
        ("triangle rasteriser with a z-buffer", rasterize_triangles, (tris, depths, W, H), {}),
        ("Catmull-Rom curve through control points", catmull_rom_curve, (ctrl,), {}),
        ("rigid alignment by ICP and Kabsch", icp_kabsch, (src, dst), {"iters": s(20, 5)}),
    ]
