"""The fastText hour classifier: features, model, training data and the thesis's measures."""
