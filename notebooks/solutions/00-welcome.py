# Solutions to lesson 00's exercises, one section per exercise cell (see notebooks/README.md).

# %% ex-predict-executed
predicted_ops = ["quantity", "cost"]

# %% ex-predict-executed wrong: counts the fed placeholder as executed
predicted_ops = ["price", "quantity", "cost"]

# %% ex-predict-executed wrong: expects the whole graph to run
predicted_ops = ["quantity", "cost", "Const", "total"]

# %% ex-predict-executed wrong: names a tensor instead of an op
predicted_ops = ["quantity:0", "cost:0"]

# %% ex-predict-rerun
predicted_new_ops = 8

# %% ex-predict-rerun wrong: thinks the second run replaces the first
predicted_new_ops = 4

# %% ex-predict-rerun wrong: forgets the constant made for 1.0
predicted_new_ops = 6

# %% ex-predict-rerun wrong: counts the lines, not the ops
predicted_new_ops = 2

# %% ex-both-in-one-run
def both(sess, y, z):
    return sess.run([y, z])

# %% ex-both-in-one-run wrong: two runs, as eval() does
def both(sess, y, z):
    return sess.run(y), sess.run(z)

# %% ex-both-in-one-run wrong: fetches a list but returns only y
def both(sess, y, z):
    return sess.run([y, z])[0]
