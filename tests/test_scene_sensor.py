"""The per-clip light and sensor track: colour of the light, flicker, auto exposure, noise, blur helpers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.errors import VisionError
from vision.scene.sensor import (
    SensorError,
    SensorSettings,
    SensorTrack,
    blur_layer,
    flicker_beat_hz,
    motion_blur,
    white_balance_gains,
)

SIZE = (64, 48)


def grey(level: int = 128, size: tuple[int, int] = SIZE) -> np.ndarray:
    return np.full((size[1], size[0], 3), level, np.uint8)


def only(**changes: object) -> SensorSettings:
    """Clean settings with just the named effects switched on."""
    return SensorSettings.clean().with_changes(**changes)


def test_clean_settings_leave_the_frame_unchanged() -> None:
    frame = np.random.default_rng(0).integers(0, 256, (48, 64, 3), dtype=np.uint8)
    track = SensorTrack(SensorSettings.clean(), SIZE, 10, np.random.default_rng(1))
    for index in range(3):
        assert np.array_equal(track.apply(frame, index), frame)


def test_the_same_seed_gives_the_same_clip() -> None:
    frames = [grey(100 + 10 * i) for i in range(5)]
    outputs = []
    for _ in range(2):
        track = SensorTrack(SensorSettings.hard(), SIZE, 10, np.random.default_rng(42))
        outputs.append([track.apply(frame, i) for i, frame in enumerate(frames)])
    for first, again in zip(*outputs, strict=True):
        assert np.array_equal(first, again)
    other = SensorTrack(SensorSettings.hard(), SIZE, 10, np.random.default_rng(43))
    assert not np.array_equal(other.apply(frames[0], 0), outputs[0][0])


def test_warm_light_raises_red_over_blue_and_daylight_the_opposite() -> None:
    warm = SensorTrack(only(light_kelvin=(1900.0, 1900.0), awb_correction=(0.3, 0.3)), SIZE, 10,
                       np.random.default_rng(0)).apply(grey(), 0).reshape(-1, 3).mean(axis=0)
    cold = SensorTrack(only(light_kelvin=(6500.0, 6500.0), awb_correction=(0.3, 0.3)), SIZE, 10,
                       np.random.default_rng(0)).apply(grey(), 0).reshape(-1, 3).mean(axis=0)
    assert warm[2] > warm[0] + 30
    assert cold[0] > cold[2]
    gains = white_balance_gains(2700.0, 0.0)
    assert gains[2] > gains[1] > gains[0]


def frame_means(track: SensorTrack, count: int) -> np.ndarray:
    frame = grey()
    return np.array([track.apply(frame, i).mean() for i in range(count)])


def dominant_frequency(series: np.ndarray, fps: float) -> float:
    spectrum = np.abs(np.fft.rfft(series - series.mean()))
    return float(np.fft.rfftfreq(series.size, 1.0 / fps)[int(spectrum.argmax())])


def flicker_settings(mains_hz: float) -> SensorSettings:
    return only(mains_hz=mains_hz, flicker_depth=(0.3, 0.3), exposure_s=(0.002, 0.002))


def test_flicker_beats_at_the_aliased_frequency_at_25_fps_under_drifting_50_hz_mains() -> None:
    fps, mains = 25.0, 50.15
    expected = flicker_beat_hz(2 * mains, fps)
    assert expected == pytest.approx(0.3)
    means = frame_means(SensorTrack(flicker_settings(mains), SIZE, fps, np.random.default_rng(3)), 400)
    assert means.max() - means.min() > 20
    assert dominant_frequency(means, fps) == pytest.approx(expected, abs=0.07)


def test_flicker_beats_at_10_hz_at_30_fps_and_stands_still_at_exactly_25_fps() -> None:
    means = frame_means(SensorTrack(flicker_settings(50.0), SIZE, 30, np.random.default_rng(3)), 120)
    assert dominant_frequency(means, 30) == pytest.approx(10.0, abs=0.3)
    steady = frame_means(SensorTrack(flicker_settings(50.0), SIZE, 25, np.random.default_rng(3)), 50)
    assert steady.max() - steady.min() <= 1.0


def test_a_rolling_shutter_turns_flicker_into_bands_across_the_rows() -> None:
    settings = flicker_settings(50.0).with_changes(readout_s=(0.02, 0.02))
    out = SensorTrack(settings, (64, 200), 25, np.random.default_rng(0)).apply(grey(size=(64, 200)), 0)
    rows = out.mean(axis=(1, 2))
    assert rows.max() - rows.min() > 20
    crossings = np.count_nonzero(np.diff(np.sign(rows - rows.mean())))
    assert crossings >= 3   # 20 ms of readout under 100 Hz light: two light and two dark bands


def test_auto_exposure_swings_when_a_bright_sleeve_enters_then_settles() -> None:
    def table_levels(strength: float) -> np.ndarray:
        track = SensorTrack(only(auto_exposure=strength), SIZE, 10, np.random.default_rng(5))
        levels = []
        for index in range(60):
            frame = grey(90)
            if index >= 10:
                frame[:, 40:] = 240   # a white sleeve covers the right of the picture
            levels.append(track.apply(frame, index)[:, :30].mean())
        return np.array(levels)

    swinging = table_levels(1.0)
    assert swinging[:10] == pytest.approx(90, abs=1)
    assert swinging[10:30].min() < 75            # the table darkens after the sleeve enters
    assert swinging[10] > swinging[10:30].min()  # ... with a lag
    assert np.ptp(swinging[50:]) < 2             # ... and settles
    assert np.array_equal(table_levels(0.0), np.full(60, 90.0))


def test_out_of_order_frames_restart_the_exposure_loop_deterministically() -> None:
    track = SensorTrack(SensorSettings.hard(), SIZE, 10, np.random.default_rng(9))
    first = track.apply(grey(120), 7)
    track.apply(grey(60), 0)
    assert np.array_equal(track.apply(grey(120), 7), first)


def test_vignetting_darkens_the_corners() -> None:
    out = SensorTrack(only(vignette=(0.5, 0.5)), (80, 60), 10, np.random.default_rng(0)).apply(
        grey(size=(80, 60)), 0).astype(float)
    assert out[0, 0].mean() < 0.6 * out[30, 40].mean()


def test_noise_grows_with_the_signal_and_changes_every_frame() -> None:
    track = SensorTrack(only(noise_sigma=(1.0, 1.0), noise_shot=(0.8, 0.8)), (120, 90), 10,
                        np.random.default_rng(0))
    dark = track.apply(grey(20, (120, 90)), 0).astype(float)
    bright = track.apply(grey(200, (120, 90)), 1).astype(float)
    again = track.apply(grey(200, (120, 90)), 2).astype(float)
    assert 1.5 < dark.std() < bright.std() < 20
    assert not np.array_equal(bright, again)


def test_compression_changes_a_detailed_frame() -> None:
    frame = np.random.default_rng(0).integers(0, 256, (48, 64, 3), dtype=np.uint8)
    out = SensorTrack(only(jpeg_quality=(30, 30)), SIZE, 10, np.random.default_rng(0)).apply(frame, 0)
    assert np.abs(out.astype(int) - frame).mean() > 5


@pytest.mark.parametrize("length", [6.0, 14.0])   # short smears exactly, long ones on a half-size copy
def test_blur_layer_smears_a_dot_along_the_motion_and_keeps_its_coverage(length: float) -> None:
    alpha = np.zeros((21, 31), np.float32)
    alpha[10, 15] = 1.0
    colour = np.full((21, 31, 3), 200.0, np.float32)
    blurred_colour, blurred_alpha = blur_layer(colour, alpha, (length, 0.0))
    assert blurred_alpha.sum() == pytest.approx(1.0, abs=0.03)
    assert np.count_nonzero(blurred_alpha[10] > 0.01) >= length - 1
    assert np.count_nonzero(blurred_alpha[[5, 15]]) == 0
    assert blurred_colour[10, 15] == pytest.approx([200, 200, 200], abs=1e-2)


def test_motion_blur_of_an_image_spreads_an_edge() -> None:
    image = np.zeros((20, 40, 3), np.uint8)
    image[:, 20:] = 255
    smeared = motion_blur(image, (8.0, 0.0))
    assert 0 < smeared[10, 18, 0] < 255 and 0 < smeared[10, 21, 0] < 255


def test_a_frame_of_the_wrong_size_or_type_is_refused_naming_both() -> None:
    track = SensorTrack(SensorSettings.clean(), SIZE, 10, np.random.default_rng(0))
    with pytest.raises(SensorError, match="64x48"):
        track.apply(grey(size=(32, 32)), 0)
    with pytest.raises(SensorError, match="float"):
        track.apply(grey().astype(np.float32), 0)
    with pytest.raises(SensorError, match="frame_index"):
        track.apply(grey(), -1)


@pytest.mark.parametrize(("changes", "field"), [
    ({"light_kelvin": (6000.0, 3000.0)}, "light_kelvin"),
    ({"flicker_depth": (0.0, 1.5)}, "flicker_depth"),
    ({"jpeg_quality": (0, 50)}, "jpeg_quality"),
    ({"auto_exposure": 2.0}, "auto_exposure"),
    ({"mains_hz": 0.0}, "mains_hz"),
])
def test_bad_settings_are_refused_naming_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(SensorError, match=field) as caught:
        SensorSettings.clean().with_changes(**changes)
    assert isinstance(caught.value, VisionError)


def test_bad_track_arguments_are_refused() -> None:
    with pytest.raises(SensorError, match="fps"):
        SensorTrack(SensorSettings.clean(), SIZE, 0, np.random.default_rng(0))
    with pytest.raises(SensorError, match="frame_size"):
        SensorTrack(SensorSettings.clean(), (0, 48), 10, np.random.default_rng(0))
    with pytest.raises(SensorError, match="Generator"):
        SensorTrack(SensorSettings.clean(), SIZE, 10, 7)  # type: ignore[arg-type]


def test_the_clips_draw_is_kept_as_plain_json_within_the_settings_ranges() -> None:
    settings = SensorSettings.hard()
    draw = SensorTrack(settings, SIZE, 10, np.random.default_rng(4)).draw
    data = json.loads(json.dumps(draw.to_json()))
    assert settings.light_kelvin[0] <= data["kelvin"] <= settings.light_kelvin[1]
    assert abs(data["mains_hz"] - 50.0) <= settings.mains_drift_hz
    assert settings.jpeg_quality[0] <= data["jpeg_quality"] <= settings.jpeg_quality[1]
    assert set(data) >= {"flicker_depth", "exposure_s", "readout_s", "noise_sigma", "vignette"}


def test_defocus_softens_a_sharp_edge() -> None:
    frame = grey(40)
    frame[:, 32:] = 220
    sharp = SensorTrack(SensorSettings.clean(), SIZE, 10, np.random.default_rng(0)).apply(frame, 0)
    soft = SensorTrack(only(defocus_px=(1.5, 1.5)), SIZE, 10, np.random.default_rng(0)).apply(frame, 0)
    assert np.array_equal(sharp, frame)
    assert 40 < soft[20, 31, 0] < 220 and 40 < soft[20, 32, 0] < 220


@pytest.mark.parametrize(("mains", "fps", "beat"), [
    (50.0, 10.0, 0.0), (50.05, 10.0, 0.1), (50.0, 15.0, 5.0), (50.0, 24.0, 4.0), (50.0, 25.0, 0.0),
    (50.0, 30.0, 10.0), (60.0, 25.0, 5.0), (60.0, 30.0, 0.0),
])
def test_the_beat_of_mains_flicker_at_common_frame_rates(mains: float, fps: float, beat: float) -> None:
    assert flicker_beat_hz(2 * mains, fps) == pytest.approx(beat, abs=1e-9)
