"""The scikit-learn plumbing every budgeted learner shares (validation, predict, tags)."""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data


class BudgetedLearner(RegressorMixin, BaseEstimator):
    """Base of the learners that see part of each example: X, y through scikit-learn's
    ``validate_data`` (finite, 2-d, float64, C-contiguous, no sparse or complex input,
    consistent ``n_features_in_``), ``predict`` = ⟨coef_, x⟩, randomness declared in the tags."""

    def _data(self, X, y, reset):
        X, y = validate_data(self, X, y, reset=reset, dtype=np.float64, order="C",
                             y_numeric=True)
        return np.ascontiguousarray(X), np.ascontiguousarray(y, dtype=np.float64)

    def predict(self, X):
        """Predictions ⟨w̄, x⟩ of the learner's output ``coef_``."""
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = self.random_state is None
        return tags
