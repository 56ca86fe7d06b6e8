"""Tick labels that overlap on a drawn figure (the gallery's and the reports' figure tests)."""
import itertools


def overlapping_tick_labels(fig):
    """Pairs of tick labels of one axis of ``fig`` whose bounding boxes overlap once drawn.

    The figure is drawn on its own canvas (layout engines run then); each visible, non-empty
    tick label, major or minor, has its window extent in pixels
    (:meth:`matplotlib.text.Text.get_window_extent`), and two labels of the same axis overlap
    when their boxes share interior points (:meth:`matplotlib.transforms.BboxBase.overlaps`).
    Returns ``[(axes title, "x" or "y", label, label), ...]``, empty when every label stands
    apart.
    """
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            boxes = [(t.get_text(), t.get_window_extent(renderer))
                     for t in axis.get_ticklabels(which="both")
                     if t.get_visible() and t.get_text()]
            found += [(ax.get_title(), axis.axis_name, a, b)
                      for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2)
                      if box_a.overlaps(box_b)]
    return found
