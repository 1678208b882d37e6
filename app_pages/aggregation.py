"""Learn: an aggregation (Max, Mean, RoR, RaR) turn by turn; Mean vs Max."""

import streamlit as st

from mlfs_core.explain import uncovered_labels
from mlfs_core.measures import MEASURE_LABELS
from mlfs_core.plots import (
    aggregation_turns_figure,
    coverage_bars,
    draw_probability_bar,
)
from ui import cached, links, presentation, widgets
from ui.sections import learn, methods

step_area, chart_area, note_area, options = presentation.headed(
    "An aggregation, step by step",
    "Per-label scores form a label x feature matrix; an aggregation turns it "
    "into one ranking. Move the step slider, or press Play, to watch it pick "
    "feature after feature.",
    "Measure, aggregation, features",
    steps=True,
)
name, key, features, labels = learn.loaded_dataset()
seed = widgets.seed()

with options:
    cols = st.columns(4)
    measure_name = cols[0].selectbox(
        "Measure",
        learn.EXPLAINED_MEASURES,
        format_func=MEASURE_LABELS.get,
        **links.bound("agg_measure"),
    )
    measure = MEASURE_LABELS[measure_name]
    binarize = learn.present_when(cols[3], key="agg_rule")
    aggregation = cols[1].selectbox(
        "Aggregation", list(learn.AGGREGATION_TEXT), **links.bound("agg_method")
    )
    k = cols[2].slider(
        "Features to select",
        2,
        min(30, len(features)),
        min(10, len(features)),
        **links.bound("agg_k"),
    )
    method = aggregation + measure
    formula, plain = learn.AGGREGATION_TEXT[aggregation]
    st.markdown(f"**{method}.** {plain}")
    learn.formula(formula)

view = widgets.call_or_error(
    f"{method} could not rank {name}",
    cached.aggregation_view,
    key,
    method,
    k,
    learn.draw_seed([method], seed),
    "inverse",
    binarize,
)
if view is None:
    st.stop()
steps, matrix, turns = view
methods.dense_note(key, name, [(method, {"binarize": binarize})], cure=learn.DENSE_CURE)
playing = learn.playing("agg_step", last=len(steps))
with step_area:
    left, right = st.columns([5, 1], vertical_alignment="bottom")
    step = left.slider(
        "Step",
        1,
        len(steps),
        on_change=learn.stop_playing,
        args=("agg_step",),
        **links.bound("agg_step"),
    )
    learn.play_button(
        right,
        "agg_step",
        is_playing=playing,
        first=1,
        last=len(steps),
        what="the picks",
    )
row = steps.iloc[step - 1]
previous = steps["score"].iloc[step - 2] if step > 1 else None
with note_area:
    st.info(learn.step_text(aggregation, step, row, features, labels, previous))
if aggregation in ("RoR", "RaR"):
    turn_fig = draw_probability_bar(
        turns,
        current=int(row["label"]),
        title="RaR: each label's chance of a turn (rarer labels more)"
        if aggregation == "RaR"
        else "RoR: labels take turns in label order",
    )
    widgets.show_figure(turn_fig, turns, key="learn_turns", filename=f"turns_{method}")
turn_labels = steps.loc[steps["label"] >= 0, "label"]
# long feature names (medical's) take the height of two rows for their ticks
long_names = max((len(str(c)) for c in matrix.columns), default=0) > 16
drawn, rows, rows_note = presentation.fewer_rows(
    matrix, keep=turn_labels, limit=presentation.ROWS_UNDER_STEPS - 2 * long_names
)
place = {int(r): i for i, r in enumerate(rows)}
with chart_area:
    widgets.show_figure(
        presentation.under_steps(
            aggregation_turns_figure(
                drawn,
                steps.assign(label=[place.get(int(r), -1) for r in steps["label"]]),
                upto=step,
                zmax=cached.largest_score(key, measure_name, binarize),
            )
        ),
        matrix.reset_index(names="label"),
        key="learn_agg",
        filename=f"aggregation_{method}",
    )
    if rows_note:
        st.caption(rows_note)
planted = learn.planted_note(
    key, steps["feature"].tolist()[:step], what=learn.first_picks(step)
)
table = steps.head(step).assign(
    feature=[
        learn.feature_label(features, int(j), planted) for j in steps["feature"][:step]
    ],
    label=[labels[int(i)] if i >= 0 else "" for i in steps["label"][:step]],
)
st.dataframe(
    table.drop(columns=[] if aggregation == "RaR" else ["probability"]), hide_index=True
)

st.subheader("Two aggregations side by side: Mean vs Max at low budgets")
st.caption(
    "Spolaôr and Tsoumakas (2013) find that with few features the aggregation "
    "matters most. For "
    "each label, count how many of its own 10 best features each method has "
    "selected: labels left at 0 get nothing of their own."
)
cols = st.columns(3)
pair = (
    cols[0].selectbox(
        "First", list(learn.AGGREGATION_TEXT), index=0, **links.bound("agg_first")
    )
    + measure,
    cols[1].selectbox(
        "Second", list(learn.AGGREGATION_TEXT), index=1, **links.bound("agg_second")
    )
    + measure,
)
budget = cols[2].slider(
    "Budget (features)",
    1,
    min(50, len(features)),
    min(5, len(features)),
    **links.bound("agg_budget"),
)
cover = widgets.call_or_error(
    "Could not compare",
    cached.coverage,
    key,
    pair,
    budget,
    10,
    learn.draw_seed(pair, seed),
    binarize,
)
if cover is not None:
    widgets.show_figure(
        coverage_bars(cover, top=10), cover, key="learn_cover", filename="coverage"
    )
    totals = uncovered_labels(cover)
    st.caption(
        "Labels with none of their 10 best features: "
        + ", ".join(f"{m} {n} of {len(labels)}" for m, n in totals.items())
    )
    truth = set(cached.planted_truth(key) or ())
    for column, other in zip(st.columns(2), pair, strict=True):
        picks, _, _ = cached.aggregation_view(
            key,
            other,
            budget,
            learn.draw_seed([other], seed),
            "inverse",
            binarize,
        )
        found = [learn.feature_label(features, int(j), truth) for j in picks["feature"]]
        column.markdown(f"**{other}: its top {budget}**")
        column.dataframe({"feature": found}, hide_index=True)
st.page_link("app_pages/greedy.py", label="Next: a greedy information-theoretic step")
learn.play_next("agg_step", is_playing=playing, current=step, last=len(steps))
