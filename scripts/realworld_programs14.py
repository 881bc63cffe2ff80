"""A fourteenth program corpus of scripts/bench_realworld.py (issue #15, session p63 task
t4): programs written the way NumPy users write them, before any ran under dynamo, of
kinds the thirteen corpora have little of. This file: bioinformatics (global alignment
scores by a DP double loop and by rows, k-mer counts by base-4 codes, GC skew in
windows, Hamming distances between reads, a PWM scan, Jukes-Cantor distances, genotype
statistics, Wright-Fisher drift), geoscience (slope and aspect of a DEM, hillshade,
inverse-distance weighting, bilinear sampling, D8 flow directions, an empirical
variogram, NMO correction), audio (ADSR note synthesis, autocorrelation pitch per
frame, a feedback comb in delay-sized blocks, Karplus-Strong, a noise gate with hold,
a mel filterbank front end, a cubic soft clipper) and astronomy/physics/robotics
(Kepler orbits by RK4, radiative transfer through layers, phase dispersion
minimisation, Lomb-Scargle, Lane-Emden, a planar arm's forward kinematics, DH chains,
a particle filter, differential-drive odometry, a PID loop that stops when settled,
potential-field planning). ``realworld_programs14_num.py`` (economics, ML pieces,
numerical methods) is the rest, joined here. ``programs(small=False)``: (name, fn,
args, kwargs); ``small``: the differential test's sizes
(tests/realworld/test_realworld_programs14.py).

Example::

    >>> programs(small=True)[0][0]
    'Needleman-Wunsch score, double loop'
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np


def _sibling(name):
    """A sibling script module (scripts/ need not be on sys.path)."""
    key = f"scripts.{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


# ---------------------------------------------------------------- bioinformatics


def nw_score_loops(a, b, match=2, mismatch=-1, gap=-2):
    """Needleman-Wunsch global alignment score, the textbook double loop."""
    n, m = len(a), len(b)
    F = np.zeros((n + 1, m + 1), dtype=np.int64)
    F[:, 0] = gap * np.arange(n + 1)
    F[0, :] = gap * np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = match if a[i - 1] == b[j - 1] else mismatch
            F[i, j] = max(F[i - 1, j - 1] + s, F[i - 1, j] + gap, F[i, j - 1] + gap)
    return F[n, m]


def nw_score_rows(a, b, scoring):
    """Global alignment score row by row: the diagonal and up moves vectorised, the
    left moves by a running scan (a dict of scores, as scripts pass them)."""
    gap = scoring["gap"]
    sub = np.where(a[:, None] == b[None, :], scoring["match"], scoring["mismatch"])
    prev = gap * np.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        row = np.empty_like(prev)
        row[0] = gap * i
        row[1:] = np.maximum(prev[:-1] + sub[i - 1], prev[1:] + gap)
        for j in range(1, len(row)):
            if row[j - 1] + gap > row[j]:
                row[j] = row[j - 1] + gap
        prev = row
    return int(prev[-1])


def kmer_spectrum(seq, k):
    """Counts of every k-mer of a 0-3 coded sequence, by base-4 codes and bincount."""
    n = len(seq) - k + 1
    codes = np.zeros(n, dtype=np.int64)
    for i in range(k):
        codes = codes * 4 + seq[i:i + n]
    counts = np.bincount(codes, minlength=4 ** k)
    freqs = counts / counts.sum()
    entropy = -(freqs[freqs > 0] * np.log2(freqs[freqs > 0])).sum()
    return counts, entropy


def gc_skew_windows(seq, window, step):
    """GC content and GC skew (G - C) / (G + C) in sliding windows, by cumsums."""
    g = np.concatenate([[0], np.cumsum(seq == 2)])
    c = np.concatenate([[0], np.cumsum(seq == 1)])
    starts = np.arange(0, len(seq) - window + 1, step)
    gw = g[starts + window] - g[starts]
    cw = c[starts + window] - c[starts]
    gc = (gw + cw) / window
    skew = np.where(gw + cw > 0, (gw - cw) / np.maximum(gw + cw, 1), 0.0)
    return gc, np.cumsum(skew)


def read_hamming_matrix(reads):
    """Pairwise Hamming distances between equal-length reads (uint8 codes)."""
    n = len(reads)
    D = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        D[i] = (reads[i] != reads).sum(axis=1)
    return D


def pwm_scan(seq, counts, background=0.25):
    """Log-odds scores of a position weight matrix at every offset, best hits."""
    probs = (counts + 0.5) / (counts + 0.5).sum(axis=0)
    pwm = np.log2(probs / background)
    L = pwm.shape[1]
    n = len(seq) - L + 1
    scores = np.zeros(n)
    for j in range(L):
        scores += pwm[seq[j:j + n], j]
    best = np.argsort(scores)[::-1][:10]
    return scores, best


def jukes_cantor_distances(aln):
    """p-distances of aligned sequences corrected by Jukes-Cantor (inf if saturated)."""
    n = aln.shape[0]
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            p = np.mean(aln[i] != aln[j])
            if p >= 0.75:
                d = np.inf
            else:
                d = -0.75 * np.log(1.0 - 4.0 * p / 3.0)
            D[i, j] = D[j, i] = d
    return D


def genotype_stats(G):
    """Allele frequencies, expected heterozygosity, F and the HWE chi-square per SNP
    from a 0/1/2 genotype matrix (samples x SNPs)."""
    n = G.shape[0]
    p = G.sum(axis=0) / (2.0 * n)
    q = 1.0 - p
    obs = np.stack([(G == 0).sum(axis=0), (G == 1).sum(axis=0), (G == 2).sum(axis=0)])
    exp = n * np.stack([q * q, 2 * p * q, p * p])
    chi2 = ((obs - exp) ** 2 / np.maximum(exp, 1e-12)).sum(axis=0)
    het_exp = 2 * p * q
    F = 1.0 - obs[1] / n / np.where(het_exp > 0, het_exp, 1.0)
    maf = np.minimum(p, q)
    keep = maf >= 0.05
    return p, F, chi2, keep


def wright_fisher_drift(seed, pop_size, p0, generations, s=0.0):
    """Allele frequencies of many loci under drift (and selection), binomial sampling."""
    rng = np.random.default_rng(seed)
    p = np.array(p0, dtype=float)
    history = [p.copy()]
    for _ in range(generations):
        w = p * (1 + s) / (p * (1 + s) + (1 - p))
        p = rng.binomial(2 * pop_size, w) / (2 * pop_size)
        history.append(p)
    fixed = np.mean(np.array(history[-1]) == 1.0)
    return np.array(history), fixed


# ---------------------------------------------------------------- geoscience


def dem_slope_aspect(dem, cellsize):
    """Slope and aspect in degrees (aspect clockwise from north) of a DEM."""
    dzdy, dzdx = np.gradient(dem, cellsize)
    slope = np.degrees(np.arctan(np.sqrt(dzdx ** 2 + dzdy ** 2)))
    aspect = np.degrees(np.arctan2(dzdy, -dzdx))
    aspect = np.where(aspect < 0, 90.0 - aspect, np.where(aspect > 90.0, 450.0 - aspect,
                                                           90.0 - aspect))
    return slope, aspect % 360.0


def hillshade(dem, cellsize, azimuth=315.0, altitude=45.0):
    """Hillshade by Horn's 3x3 kernels, ESRI's formula, 0-255."""
    z = np.pad(dem, 1, mode="edge")
    dzdx = ((z[:-2, 2:] + 2 * z[1:-1, 2:] + z[2:, 2:])
            - (z[:-2, :-2] + 2 * z[1:-1, :-2] + z[2:, :-2])) / (8 * cellsize)
    dzdy = ((z[2:, :-2] + 2 * z[2:, 1:-1] + z[2:, 2:])
            - (z[:-2, :-2] + 2 * z[:-2, 1:-1] + z[:-2, 2:])) / (8 * cellsize)
    zenith = math.radians(90.0 - altitude)
    az = math.radians(360.0 - azimuth + 90.0)
    slope = np.arctan(np.hypot(dzdx, dzdy))
    aspect = np.arctan2(dzdy, -dzdx)
    shade = (math.cos(zenith) * np.cos(slope)
             + math.sin(zenith) * np.sin(slope) * np.cos(az - aspect))
    return np.clip(255.0 * shade, 0, 255)


def idw_grid(xs, ys, vals, nx, ny, power=2.0):
    """Inverse-distance-weighted interpolation of scattered stations onto a grid."""
    gx = np.linspace(xs.min(), xs.max(), nx)
    gy = np.linspace(ys.min(), ys.max(), ny)
    GX, GY = np.meshgrid(gx, gy)
    num = np.zeros_like(GX)
    den = np.zeros_like(GX)
    for x, y, v in zip(xs, ys, vals):
        d2 = (GX - x) ** 2 + (GY - y) ** 2
        w = 1.0 / np.maximum(d2, 1e-12) ** (power / 2)
        num += w * v
        den += w
    return num / den


def bilinear_sample(grid, px, py):
    """Values of a grid at fractional (x, y) points, bilinear, clamped at the edges."""
    h, w = grid.shape
    px = np.clip(px, 0, w - 1.000001)
    py = np.clip(py, 0, h - 1.000001)
    x0 = np.floor(px).astype(int)
    y0 = np.floor(py).astype(int)
    fx = px - x0
    fy = py - y0
    top = grid[y0, x0] * (1 - fx) + grid[y0, x0 + 1] * fx
    bottom = grid[y0 + 1, x0] * (1 - fx) + grid[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


D8_OFFSETS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def d8_flow_directions(dem):
    """D8 flow direction (0-7, -1 for pits) by the steepest drop to the 8 neighbours."""
    h, w = dem.shape
    z = np.pad(dem, 1, mode="constant", constant_values=np.inf)
    drops = []
    for dy, dx in D8_OFFSETS:
        dist = math.sqrt(2.0) if dy and dx else 1.0
        nb = z[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
        drops.append((dem - nb) / dist)
    drops = np.stack(drops)
    direction = np.argmax(drops, axis=0)
    direction[drops.max(axis=0) <= 0] = -1
    return direction, np.bincount(direction.ravel() + 1, minlength=9)


def empirical_variogram(xy, z, n_bins, max_lag):
    """Semivariance of pairs by distance bins (all pairs, upper triangle)."""
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    g = 0.5 * (z[:, None] - z[None, :]) ** 2
    iu = np.triu_indices(len(z), 1)
    d, g = d[iu], g[iu]
    keep = d < max_lag
    bins = (d[keep] / max_lag * n_bins).astype(int)
    sums = np.bincount(bins, weights=g[keep], minlength=n_bins)
    counts = np.bincount(bins, minlength=n_bins)
    centers = (np.arange(n_bins) + 0.5) * max_lag / n_bins
    return centers, sums / np.maximum(counts, 1), counts


def nmo_correct(gather, offsets, dt, velocity):
    """Normal-moveout correction of a CMP gather, trace by trace with np.interp."""
    nt = gather.shape[0]
    t0 = np.arange(nt) * dt
    out = np.zeros_like(gather)
    for k, x in enumerate(offsets):
        t = np.sqrt(t0 ** 2 + (x / velocity) ** 2)
        out[:, k] = np.interp(t, t0, gather[:, k], left=0.0, right=0.0)
        stretch = t0 / np.maximum(t, 1e-12)
        out[stretch < 0.5, k] = 0.0
    return out, out.sum(axis=1)


# ---------------------------------------------------------------- audio


def adsr_synth(notes, sr, total_s):
    """Sum of sine notes, each with an attack-decay-sustain-release envelope (notes
    are dicts, as a sequencer keeps them)."""
    out = np.zeros(int(sr * total_s))
    for note in notes:
        n = int(note["dur"] * sr)
        a, d, r = int(0.01 * sr), int(0.05 * sr), int(0.1 * sr)
        s_len = max(n - a - d - r, 0)
        env = np.concatenate([np.linspace(0, 1, a, endpoint=False),
                              np.linspace(1, note["sustain"], d, endpoint=False),
                              np.full(s_len, note["sustain"]),
                              np.linspace(note["sustain"], 0, r)])
        t = np.arange(len(env)) / sr
        tone = np.sin(2 * np.pi * note["freq"] * t) + 0.3 * np.sin(4 * np.pi * note["freq"] * t)
        start = int(note["start"] * sr)
        end = min(start + len(env), len(out))
        out[start:end] += note["amp"] * (env * tone)[:end - start]
    peak = np.abs(out).max()
    return out / peak if peak > 1.0 else out


def autocorr_pitch_track(x, sr, frame=1024, hop=512, fmin=80.0, fmax=500.0):
    """Pitch per frame by the autocorrelation peak between lags sr/fmax and sr/fmin;
    0 for quiet frames."""
    lo, hi = int(sr / fmax), int(sr / fmin)
    pitches = []
    for start in range(0, len(x) - frame, hop):
        f = x[start:start + frame]
        f = f - f.mean()
        energy = np.dot(f, f)
        if energy < 1e-3:
            pitches.append(0.0)
            continue
        r = np.array([np.dot(f[:-lag], f[lag:]) for lag in range(lo, hi)])
        lag = lo + int(np.argmax(r))
        pitches.append(sr / lag)
    return np.array(pitches)


def feedback_comb_blocks(x, delay, g):
    """y[n] = x[n] + g y[n - delay], a delay's worth of samples at a time."""
    y = x.astype(float).copy()
    for start in range(delay, len(y), delay):
        stop = min(start + delay, len(y))
        y[start:stop] += g * y[start - delay:stop - delay]
    return y


def karplus_strong(seed, freq, sr, n_samples, decay=0.996):
    """Plucked string: a noise burst in a delay line, averaged as it circulates."""
    rng = np.random.default_rng(seed)
    period = int(sr / freq)
    buf = rng.uniform(-1, 1, period)
    out = np.empty(n_samples)
    idx = 0
    for n in range(n_samples):
        nxt = (idx + 1) % period
        out[n] = buf[idx]
        buf[idx] = decay * 0.5 * (buf[idx] + buf[nxt])
        idx = nxt
    return out


def noise_gate_hold(x, frame=256, threshold_db=-40.0, hold_frames=4):
    """A gate: frames below the threshold are muted after ``hold_frames`` quiet ones."""
    y = x.copy()
    quiet = 0
    levels = []
    for start in range(0, len(x) - frame + 1, frame):
        seg = x[start:start + frame]
        rms = np.sqrt(np.mean(seg ** 2))
        db = 20 * np.log10(rms + 1e-12)
        levels.append(db)
        if db < threshold_db:
            quiet += 1
            if quiet > hold_frames:
                y[start:start + frame] = 0.0
        else:
            quiet = 0
    return y, np.array(levels)


def mel_filterbank_energies(x, sr, n_fft=512, hop=256, n_mels=26):
    """Pre-emphasis, Hamming frames, power spectra and log mel energies (an MFCC front
    end), the triangular filters built in a loop."""
    x = np.append(x[0], x[1:] - 0.97 * x[:-1])
    n_frames = 1 + (len(x) - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n_frames)[:, None]
    frames = x[idx] * np.hamming(n_fft)
    power = np.abs(np.fft.rfft(frames, n_fft)) ** 2 / n_fft
    mel_max = 2595 * np.log10(1 + (sr / 2) / 700)
    hz = 700 * (10 ** (np.linspace(0, mel_max, n_mels + 2) / 2595) - 1)
    bins = np.floor((n_fft + 1) * hz / sr).astype(int)
    fbank = np.zeros((n_mels, n_fft // 2 + 1))
    for m in range(1, n_mels + 1):
        left, center, right = bins[m - 1], bins[m], bins[m + 1]
        for k in range(left, center):
            fbank[m - 1, k] = (k - left) / (center - left)
        for k in range(center, right):
            fbank[m - 1, k] = (right - k) / (right - center)
    energies = power @ fbank.T
    return np.log(np.where(energies == 0, np.finfo(float).eps, energies))


def cubic_soft_clip(x, drive=4.0, mix=0.7):
    """A cubic soft clipper with a dry/wet mix and output normalisation."""
    d = x * drive
    wet = np.where(d <= -1, -2.0 / 3.0, np.where(d >= 1, 2.0 / 3.0, d - d ** 3 / 3))
    y = mix * 1.5 * wet + (1 - mix) * x
    return y / np.max(np.abs(y))


def programs(small: bool = False):
    """(name, fn, args, kwargs) of the whole fourteenth corpus, this file's and the
    siblings'."""
    rng = np.random.default_rng(14)
    s = lambda big, little: little if small else big
    nw_a = rng.integers(0, 4, s(120, 6))
    nw_b = np.where(rng.random(s(110, 7)) < 0.7, np.resize(nw_a, s(110, 7)),
                    rng.integers(0, 4, s(110, 7)))
    row_a = rng.integers(0, 4, s(220, 6))
    row_b = rng.integers(0, 4, s(200, 5))
    genome = rng.choice(4, s(1000000, 300), p=[0.3, 0.2, 0.2, 0.3])
    reads = rng.integers(0, 4, (s(300, 8), s(150, 20))).astype(np.uint8)
    motif_counts = rng.integers(0, 20, (4, s(12, 5)))
    ancestor = rng.integers(0, 4, s(2000, 30))
    aln = np.where(rng.random((s(40, 5), len(ancestor))) < 0.2,
                   rng.integers(0, 4, (s(40, 5), len(ancestor))), ancestor)
    G = rng.binomial(2, rng.uniform(0.01, 0.5, s(2000, 15)), (s(1000, 20), s(2000, 15)))
    yy, xx = np.mgrid[0:s(700, 12), 0:s(700, 13)]
    dem = (50 * np.sin(xx / s(90.0, 3.0)) * np.cos(yy / s(70.0, 4.0)) + 0.05 * xx
           + rng.random(xx.shape))
    dem_d8 = dem[:s(600, 12), :s(600, 13)].copy()
    st_x, st_y = rng.uniform(0, 100, s(100, 5)), rng.uniform(0, 100, s(100, 5))
    st_v = np.sin(st_x / 20) + np.cos(st_y / 15)
    field = rng.random((s(500, 9), s(500, 10)))
    qx = rng.uniform(-2, field.shape[1] + 2, s(500000, 40))
    qy = rng.uniform(-2, field.shape[0] + 2, len(qx))
    vxy = rng.uniform(0, 100, (s(1000, 20), 2))
    vz = np.sin(vxy[:, 0] / 15) + 0.3 * rng.standard_normal(len(vxy))
    offsets = np.linspace(100, 3000, s(96, 5))
    gather = rng.standard_normal((s(2000, 50), len(offsets)))
    sr = s(16000, 2000)
    tt = np.arange(s(2 * 16000, 2000)) / sr
    f0 = 150 + 60 * np.sin(2 * np.pi * 0.5 * tt)
    voice = np.sin(2 * np.pi * np.cumsum(f0) / sr) + 0.5 * np.sin(4 * np.pi * np.cumsum(f0) / sr)
    voice *= (np.sin(2 * np.pi * 1.3 * tt) > -0.3)
    voice += 0.01 * rng.standard_normal(len(voice))
    notes = [{"start": 0.1 * i, "dur": 0.3 + 0.05 * (i % 4), "freq": 220.0 * 2 ** (i % 12 / 12),
              "amp": 0.3, "sustain": 0.6} for i in range(s(36, 3))]
    audio = rng.standard_normal(s(200000, 100)) * np.repeat(
        rng.random(s(200000, 100) // s(4000, 10)) ** 4, s(4000, 10))
    return [
        ("Needleman-Wunsch score, double loop", nw_score_loops, (nw_a, nw_b), {}),
        ("global alignment score by rows and a scan", nw_score_rows, (row_a, row_b),
         {"scoring": {"match": 1, "mismatch": -1, "gap": -2}}),
        ("k-mer spectrum by base-4 codes", kmer_spectrum, (genome, s(6, 3)), {}),
        ("GC content and cumulative skew in windows", gc_skew_windows,
         (genome, s(1000, 50), s(100, 10)), {}),
        ("Hamming distances between reads", read_hamming_matrix, (reads,), {}),
        ("position weight matrix scan", pwm_scan, (genome[:s(500000, 200)], motif_counts), {}),
        ("Jukes-Cantor distance matrix", jukes_cantor_distances, (aln,), {}),
        ("genotype frequencies and HWE chi-square", genotype_stats, (G,), {}),
        ("Wright-Fisher drift with selection", wright_fisher_drift,
         (5, s(500, 30), rng.uniform(0.05, 0.95, s(5000, 20)), s(100, 5)), {"s": 0.01}),
        ("DEM slope and aspect", dem_slope_aspect, (dem, 30.0), {}),
        ("hillshade by Horn's kernels", hillshade, (dem, 30.0), {}),
        ("inverse distance weighting onto a grid", idw_grid,
         (st_x, st_y, st_v, s(200, 8), s(200, 9)), {}),
        ("bilinear sampling at scattered points", bilinear_sample, (field, qx, qy), {}),
        ("D8 flow directions", d8_flow_directions, (dem_d8,), {}),
        ("empirical semivariogram by distance bins", empirical_variogram,
         (vxy, vz, s(15, 4), 60.0), {}),
        ("NMO correction of a CMP gather", nmo_correct, (gather, offsets, 0.004, 2000.0), {}),
        ("ADSR note synthesis from dicts", adsr_synth, (notes, sr, s(4.0, 0.5)), {}),
        ("autocorrelation pitch per frame", autocorr_pitch_track, (voice, sr),
         {"frame": s(1024, 128), "hop": s(512, 64), "fmax": s(500.0, 400.0),
          "fmin": s(80.0, 100.0)}),
        ("feedback comb filter in delay blocks", feedback_comb_blocks,
         (audio, s(1500, 7), 0.7), {}),
        ("Karplus-Strong plucked string", karplus_strong,
         (3, s(220.0, 400.0), s(44100, 4000), s(20000, 150)), {}),
        ("noise gate with hold", noise_gate_hold, (audio,), {"frame": s(256, 10)}),
        ("log mel filterbank energies", mel_filterbank_energies, (voice, sr),
         {"n_fft": s(512, 64), "hop": s(256, 32), "n_mels": s(26, 6)}),
        ("cubic soft clipper with mix", cubic_soft_clip, (audio,), {}),
    ] + _sibling("realworld_programs14_sci").programs(small) \
        + _sibling("realworld_programs14_num").programs(small)
