/**
 * The recap quiz (/learn/<lang>/recap/): each question's choices are checked in the page against its
 * `data-answer`; a wrong pick is marked and may be retried, and the explanation is shown only once
 * the question is answered right (no spoilers before). The score counts first picks that were right.
 */
const quiz = document.querySelector(".quiz");
const questions = [...quiz.querySelectorAll("[data-quiz-question]")];
const firstTry = new Map();

function pick(question, button) {
  const right = button.dataset.quizChoice === question.dataset.answer;
  if (!firstTry.has(question)) firstTry.set(question, right);
  button.dataset.picked = right ? "right" : "wrong";
  question.querySelector("[data-quiz-verdict]").textContent = right
    ? quiz.dataset.rightWord
    : quiz.dataset.wrongWord;
  if (!right) {
    button.disabled = true;
    return;
  }
  for (const choice of question.querySelectorAll("[data-quiz-choice]")) choice.disabled = true;
  question.querySelector("[data-quiz-explain]").hidden = false;
  question.dataset.answered = "true";
  if (questions.every((each) => each.dataset.answered === "true")) showScore();
}

function showScore() {
  const score = document.querySelector("[data-quiz-score]");
  const right = [...firstTry.values()].filter(Boolean).length;
  score.textContent = score.textContent.replace("{k}", right).replace("{n}", questions.length);
  score.hidden = false;
}

for (const question of questions) {
  for (const button of question.querySelectorAll("[data-quiz-choice]")) {
    button.addEventListener("click", () => pick(question, button));
  }
}
